# The two commands of the README: `make run` and `make test`. Everything they need is installed here.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
APT_GET := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get)

.PHONY: test-system-packages run test venv dev-venv system-packages messages makemessages i18n-check lint pytest serve

$(VENV)/.installed: requirements.txt
	@# Debian's python3 makes virtual environments only with python3-venv (ensurepip) installed
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq python3-venv; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-installed: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed
dev-venv: $(VENV)/.dev-installed

# Debian packages: gettext (translations), Pango (WeasyPrint's PDFs), fonts, and for the
# tests Chromium and its headless shell (browser tests, tests/browser/conftest.py) and poppler-utils (PDF pages to PNG).
system-packages:
	@missing=""; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	ldconfig -p | grep -q libpango-1.0 || missing="$$missing libpango-1.0-0 libpangoft2-1.0-0"; \
	[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
	if [ -n "$$missing" ]; then $(APT_GET) update -qq && $(APT_GET) install -y -qq $$missing; fi

test-system-packages: system-packages
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ -x /usr/bin/chromium-headless-shell ] || missing="$$missing chromium-headless-shell"; \
	command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$$missing nginx-light"; \
	command -v pdftoppm >/dev/null || missing="$$missing poppler-utils"; \
	if [ -n "$$missing" ]; then $(APT_GET) update -qq && $(APT_GET) install -y -qq $$missing; fi

messages: venv system-packages
	$(PY) manage.py compilemessages --ignore=.venv -v0

# Refresh the catalogues after changing user-facing strings, then translate what is new.
makemessages: venv
	$(PY) manage.py makemessages -l de -l da --no-location --no-obsolete --ignore=.venv --ignore=tests --ignore=bench

i18n-check: dev-venv
	$(PY) tools/check_translations.py

lint: dev-venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# Production settings (DEBUG off; `DEBUG=1 make run` for a developer's debug pages) under waitress, on 127.0.0.1; any
# other address (HOST=0.0.0.0: the hall's laptops and phones) serves the hall and prints the address to open
# (tournament/management/commands/serve.py). The first start prints the director's password here.
run: venv messages
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# pytest-xdist workers for `make test`/`make pytest`: one per CPU (`PYTEST_WORKERS=0` runs in one process)
PYTEST_WORKERS ?= auto

# Python may write its bytecode (some machines set PYTHONDONTWRITEBYTECODE): otherwise every worker and every
# subprocess of the suite compiles the project and pytest rewrites every test module again (collection 9 s -> 4 s).
pytest: export PYTHONDONTWRITEBYTECODE =
pytest: dev-venv test-system-packages messages
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS)

test: export PYTHONDONTWRITEBYTECODE =
test: dev-venv test-system-packages messages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run -v1
	$(PY) tools/check_translations.py
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS)
