"""The app's log without the table links' tokens (config/settings.py, LOGGING).

A table's private link is /t/<token>/ (scoring/tablelink_urls.py): whoever reads it enters that table's results.
Django names the path of every refused or failed request in its log ("Not Found: /t/…/"), and so does the outage
page's line (tournament/middleware.py); the proxy's access log is kept clean by its log format (docs/server.md)."""

import logging
import re

#: a table link's token in a path (not a "/t/" inside another path segment)
TABLE_LINK_TOKEN = re.compile(r"(?<![\w.~-])/t/[^/\s?#\"']+")


def hide_table_link_tokens(text: str) -> str:
    return TABLE_LINK_TOKEN.sub("/t/…", text)


class HideTableLinkTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = hide_table_link_tokens(message)
        if hidden != message:
            record.msg, record.args = hidden, ()
        return True
