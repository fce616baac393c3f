"""The static files' storage in production: whitenoise's hashed, compressed files (served by whitenoise, nothing
from a CDN), each name's address worked out once per process."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):
    """A page names a dozen static files through `{% static %}`. Each name's hashed address (a lookup in the
    manifest and three URL parses: about a tenth of a millisecond, a millisecond of every page) stays the same
    while the process runs, the manifest being read once: it is kept after its first use. Collecting the files
    hashes through `_url`, never through this; a changed STATIC_URL or STATIC_ROOT (tests) forgets them."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._addresses: dict[str, str] = {}

    def url(self, name, force=False):
        if force:
            return super().url(name, force)
        address = self._addresses.get(name)
        if address is None:
            address = self._addresses[name] = super().url(name)
        return address

    def _clear_cached_properties(self, setting, **kwargs):
        super()._clear_cached_properties(setting, **kwargs)
        if setting in ("STATIC_URL", "STATIC_ROOT", "MEDIA_URL", "MEDIA_ROOT"):
            self._addresses = {}
