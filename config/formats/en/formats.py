"""English short dates that read the same everywhere English is read at these tournaments: "8 Jan 2027".

Django's "en" writes 01/08/2027, which a reader in Britain, Ireland or Greenland takes for 1 August; the
clubs are Danish, Greenlandic and Bavarian, and the English pages are read by their guests. Only the output
formats change (printouts, Excel, pages); what a form accepts stays Django's. German and Danish keep theirs.
"""

SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y P"
