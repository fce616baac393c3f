"""The app's log without the table links' and the personal links' tokens (config/settings.py, LOGGING).

A table's private link is /t/<token>/ (scoring/tablelink_urls.py): whoever reads it enters that table's results.
Django names the path of every refused or failed request in its log ("Not Found: /t/…/"), and so does the outage
page's line (tournament/middleware.py). A player's personal link /p/<slug>/me/<token>/
(tournament/public/evening_links.py) is hidden the same way, whole: nothing on the director's pages needs a hint of it.
The filter sits on the console handler and on Django's loggers that write a request's address (scoring/apps.py); the
proxy's access log is kept clean by its log format (docs/server.md)."""

import logging
import re

#: a table link's token in a path (not a "/t/" inside another path segment); its first 6 characters are the hint
#: the director's links page shows beside each table, kept so that a log line can be matched to its table
TABLE_LINK_TOKEN = re.compile(r"(?<![\w.~-])(/t/[^/\s?#\"']{0,6})[^/\s?#\"']*")


#: a personal link's token in a path: /p/<slug>/me/<token>
EVENING_LINK_TOKEN = re.compile(r"(/p/[^/\s?#\"']+/me/)[^/\s?#\"']+")


def hide_table_link_tokens(text: str) -> str:
    return EVENING_LINK_TOKEN.sub(r"\1…", TABLE_LINK_TOKEN.sub(r"\1…", text))


class HideTableLinkTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = hide_table_link_tokens(message)
        if hidden != message:
            record.msg, record.args = hidden, ()
        return True
