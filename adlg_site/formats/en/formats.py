# One date format for the whole English site: 9 Mar 2024 (day, short month, year: read the same everywhere).
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
# A date field is an <input type="date">, whose value must be ISO: ISO first (as Django's English formats already do).
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d %b %Y", "%d %B %Y"]
# A CSV a person opens in an English spreadsheet: comma-separated, decimal point (adlg_site.csv_export).
CSV_DELIMITER = ","
