"""Before the tournament day: a new tournament in the calendar, its announcement, the players' entries and army
lists, the calendar's iCalendar feed; the referee's, the list checker's and the player's pages."""
