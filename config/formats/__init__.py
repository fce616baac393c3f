"""Date formats of this project where Django's own mislead its readers (settings.FORMAT_MODULE_PATH)."""
