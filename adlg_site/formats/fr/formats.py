# One date format for the whole French site, months written out as the French write them: 9 mars 2024.
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = r"j F Y \à H:i"
SHORT_DATE_FORMAT = "j F Y"
SHORT_DATETIME_FORMAT = r"j F Y \à H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
