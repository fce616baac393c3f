import logging

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

#: Django's loggers that write a request's address (a refused request, the development server's lines)
ADDRESS_LOGGERS = ("django.request", "django.server", "django.security.csrf")


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self):
        from tournament.logs import HideTableLinkTokens

        for name in ADDRESS_LOGGERS:
            logger = logging.getLogger(name)
            if not any(isinstance(f, HideTableLinkTokens) for f in logger.filters):
                logger.addFilter(HideTableLinkTokens())
