# One date format for the whole French site, months written out as the French write them: 9 mars 2024.
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = r"j F Y \à H:i"
SHORT_DATE_FORMAT = "j F Y"
SHORT_DATETIME_FORMAT = r"j F Y \à H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
# A date field is an <input type="date">, whose value must be ISO whatever the language: ISO first, then the forms
# a French reader types in the admin.
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d.%m.%Y", "%d.%m.%y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M", "%d/%m/%Y"]
# A French spreadsheet splits a CSV on semicolons: the comma is its decimal separator (adlg_site.csv_export).
CSV_DELIMITER = ";"
