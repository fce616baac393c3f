"""Results: how what a table wrote becomes a result that counts, one concern per module.

- `counting.py`: **when a result counts** (typed, double entry, confirmed, sent from a table's link, two
  agreeing reports from seats' links), and the one function that turns a first entry into the counted sheet.
- `recording.py`: `record_sheet`, the one path of a typed entry or a director's correction (versions,
  replays, audit).
- `double_entry.py`: first and second entry, the director's decision between two entries.
- `links.py`: the tables' private links (tokens, issuing, withdrawing); `brakes.py`: how often they may send.
- `photos.py`: a photo of the paper sheet from a table's phone: checked, made anew, kept with its place.
- `problems.py`: problems a table signals from its link, and closing them.
- `compare.py`: two versions of a sheet field by field; `recompute.py`: what stored sheets are worth.
- `places.py`, `checks.py`, `words.py`: a sheet's place, the rules' verdict on entries, who entered what.
- `views.py`: `EntryFlow`, the sheet-entry protocol (save, saved meanwhile, entries differ, decide, confirm)
  every entry page uses.
"""
