"""The words of pairing's notices (rules.pairing.model.Notice codes) and of the live tournament's refusals, in
English and French. `names` turns the IDs a notice carries into the names the referee knows. A code of the result
sheet's checks (rules.sheet.messages), which the day applies to what is typed, is worded as the sheet words it."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.sheet.messages import MESSAGES as SHEET_MESSAGES
from rules.sheet.messages import render as sheet_text

MESSAGES: dict[str, dict[str, str]] = {
    # pairing refusals
    "no_pairing_without_rematch": {
        "en": "Round {round} cannot be paired without a rematch. Pair it by hand and give the reason.",
        "fr": "La ronde {round} ne peut pas être appariée sans revanche. Appariez-la à la main et donnez la "
              "raison.",
    },
    "elo_levels_required": {
        "en": "{players} players for {ideal} ideal: the charter requires pairing round 1 by Elo levels.",
        "fr": "{players} joueurs pour un nombre idéal de {ideal} : la charte impose d'apparier la ronde 1 par "
              "niveaux Elo.",
    },
    "method_not_allowed": {
        "en": "The method {method} is not allowed here; allowed: {allowed}.",
        "fr": "La méthode {method} n'est pas permise ici ; permises : {allowed}.",
    },
    "method_not_for_round": {
        "en": "A round-1 method ({method}) cannot be chosen for round {round}.",
        "fr": "Une méthode de ronde 1 ({method}) ne peut pas être choisie pour la ronde {round}.",
    },
    "hat_missing": {
        "en": "Put every player in hat 1 or hat 2 first; without a hat: {players}.",
        "fr": "Mettez d'abord chaque joueur dans le chapeau 1 ou 2 ; sans chapeau : {players}.",
    },
    "group_missing": {
        "en": "Players without a group: {players}.",
        "fr": "Joueurs sans groupe : {players}.",
    },
    "swiss_not_allowed": {
        "en": "{swiss} Swiss is not allowed with {players} players for {ideal} ideal.",
        "fr": "Le système suisse {swiss} n'est pas permis avec {players} joueurs pour un nombre idéal de {ideal}.",
    },
    "player_twice": {"en": "{player} is paired twice.", "fr": "{player} est apparié deux fois."},
    "player_unknown": {"en": "{player} is not a player of this tournament.",
                       "fr": "{player} n'est pas un joueur de ce tournoi."},
    "player_withdrawn": {"en": "{player} has withdrawn.", "fr": "{player} s'est retiré."},
    "player_other_pool": {"en": "{player} plays in another pool.", "fr": "{player} joue dans une autre poule."},
    "player_unpaired": {"en": "{player} is not paired.", "fr": "{player} n'est pas apparié."},
    "player_against_self": {"en": "{player} cannot play against themself.",
                            "fr": "{player} ne peut pas jouer contre lui-même."},
    "spare_not_needed": {"en": "The number of players is even: no spare this round.",
                         "fr": "Le nombre de joueurs est pair : pas de joueur de réserve à cette ronde."},
    "free_game_not_allowed": {
        "en": "{player} may not play a free game: only players of the lower half who can no longer reach the "
              "top 4.",
        "fr": "{player} ne peut pas jouer de partie libre : seulement les joueurs de la moitié basse qui ne "
              "peuvent plus atteindre les 4 premières places.",
    },
    # pairing warnings
    "club_mates": {"en": "{a} and {b} are club-mates.", "fr": "{a} et {b} sont du même club."},
    "rematch": {"en": "{a} and {b} have already met.", "fr": "{a} et {b} se sont déjà rencontrés."},
    "spare_not_lowest": {"en": "The spare plays {player}, not the lowest player who has not met it ({lowest}).",
                         "fr": "La réserve joue contre {player}, pas contre le dernier qui ne l'a pas "
                               "rencontrée ({lowest})."},
    "groups_cross_pair": {"en": "{a} and {b} play across the two groups.",
                          "fr": "{a} et {b} jouent d'un groupe à l'autre."},
    # the live tournament's own refusals
    "published": {"en": "The tournament is published: a correction is a new sheet.",
                  "fr": "Le tournoi est publié : une correction passe par une nouvelle feuille."},
    "all_rounds_paired": {"en": "All {rounds} rounds of pool {pool} are paired.",
                          "fr": "Les {rounds} rondes de la poule {pool} sont appariées."},
    "round_incomplete": {"en": "Round {round} of pool {pool} still has tables without a result.",
                         "fr": "La ronde {round} de la poule {pool} a encore des tables sans résultat."},
    "round_not_published": {"en": "Round {round} of pool {pool} is not published yet.",
                            "fr": "La ronde {round} de la poule {pool} n'est pas encore publiée."},
    "round_published": {"en": "Round {round} is published: its pairs can no longer change.",
                        "fr": "La ronde {round} est publiée : ses appariements ne peuvent plus changer."},
    "too_few_players": {"en": "Pool {pool} needs at least two players.",
                        "fr": "La poule {pool} doit compter au moins deux joueurs."},
    "no_such_table": {"en": "Round {round} has no table {table}.", "fr": "La ronde {round} n'a pas de table {table}."},
    "no_such_pool": {"en": "There is no pool {pool}.", "fr": "Il n'y a pas de poule {pool}."},
    "reason_required": {"en": "A rule is bent ({warnings}): give the reason, which the tournament's page shows.",
                        "fr": "Une règle n'est pas respectée ({warnings}) : donnez la raison, que la page du "
                              "tournoi affichera."},
    "result_changed_reason": {"en": "Round {round} is followed by a paired round: give the reason for changing "
                                    "this result.",
                              "fr": "La ronde {round} est suivie d'une ronde appariée : donnez la raison de ce "
                                    "changement de résultat."},
    "fault": {"en": "{message}", "fr": "{message}"},
    "free_against_spare": {"en": "A game against the spare cannot be a free game.",
                           "fr": "Une partie contre la réserve ne peut pas être une partie libre."},
    "withdraw_round": {"en": "Round {round} is already published for this player: withdraw from round {next} on.",
                       "fr": "La ronde {round} est déjà publiée pour ce joueur : retirez-le à partir de la "
                             "ronde {next}."},
    "round_out_of_range": {"en": "Round {round} is not one of rounds 1 to {rounds}.",
                           "fr": "La ronde {round} n'est pas une des rondes 1 à {rounds}."},
    "already_playing": {"en": "{player} already plays in this tournament.",
                        "fr": "{player} joue déjà dans ce tournoi."},
    "unknown_player": {"en": "No player has the ID {id}.", "fr": "Aucun joueur n'a l'identifiant {id}."},
    "excluded_player": {"en": "{player} is excluded and cannot play.",
                        "fr": "{player} est exclu et ne peut pas jouer."},
    "name_required": {"en": "A new player needs a last name.", "fr": "Un nouveau joueur doit avoir un nom."},
    "not_complete": {"en": "Pool {pool} has played {played} of {rounds} rounds: publish when every round is "
                           "complete.",
                     "fr": "La poule {pool} a joué {played} rondes sur {rounds} : publiez quand toutes les rondes "
                           "sont complètes."},
    "self_entry_closed": {"en": "The referee enters the results of this tournament.",
                          "fr": "L'arbitre saisit les résultats de ce tournoi."},
    "not_your_table": {"en": "You do not play at this table.", "fr": "Vous ne jouez pas à cette table."},
    "result_already_in": {"en": "This table's result is already in; ask the referee to change it.",
                          "fr": "Le résultat de cette table est déjà saisi ; demandez à l'arbitre de le changer."},
    "hat_invalid": {"en": "A hat is 1 or 2.", "fr": "Un chapeau vaut 1 ou 2."},
    "not_started": {"en": "The tournament has not started: pair round 1 first.",
                    "fr": "Le tournoi n'a pas commencé : appariez d'abord la ronde 1."},
    "method_round_one_only": {"en": "The round-1 method is chosen for round 1 only.",
                              "fr": "La méthode de ronde 1 ne se choisit que pour la ronde 1."},
    # the day's players (PAIRING.md §6); French with a non-breaking space before : ; ? !
    "first_name_required": {"en": "A new player needs a first name.", "fr": "Un nouveau joueur doit avoir un prénom."},
    "club_unknown": {"en": "No club of the federation is named “{club}”: choose one from the list, or confirm that it "
                           "is a new club.",
                     "fr": "Aucun club de la fédération ne s'appelle «\u00a0{club}\u00a0»\u00a0: choisissez-en un "
                           "dans la liste, ou confirmez que c'est un nouveau club."},
    "remove_has_game": {"en": "{player} has played in this tournament and cannot be removed: withdraw instead.",
                        "fr": "{player} a joué dans ce tournoi et ne peut pas être supprimé\u00a0: retirez-le plutôt."},
    "round_one_published": {"en": "Round 1 of pool {pool} is published: {player} can no longer change pool or hat.",
                            "fr": "La ronde 1 de la poule {pool} est publiée\u00a0: {player} ne peut plus changer de "
                                  "poule ni de chapeau."},
    "absent_after_round_one": {"en": "Round 1 of pool {pool} is published: withdraw {player}, or remove them if they "
                                     "have no game.",
                               "fr": "La ronde 1 de la poule {pool} est publiée\u00a0: retirez {player}, ou "
                                     "supprimez-le s'il n'a aucune partie."},
    "not_new_player": {"en": "{player} is a player of the federation: their names and club are the federation's.",
                       "fr": "{player} est un joueur de la fédération\u00a0: ses nom et club sont ceux de la "
                             "fédération."},
    "entrant_gone": {"en": "This player is no longer in the tournament.",
                     "fr": "Ce joueur n'est plus dans le tournoi."},
    # starting and cancelling a live run (PAIRING.md §7)
    "results_on_site": {"en": "The results of {name} are on the site: a rated tournament is corrected by a new result "
                              "sheet, not run live.",
                        "fr": "Les résultats de {name} sont sur le site\u00a0: un tournoi classé se corrige par une "
                              "nouvelle feuille de résultats, pas en direct."},
    "already_live": {"en": "{name} is already run live.", "fr": "{name} est déjà joué en direct."},
    "dates_exclude_today": {"en": "Today ({today}) is not within {start} – {end}: give the tournament's real dates, "
                                  "today included.",
                            "fr": "Aujourd'hui ({today}) n'est pas entre le {start} et le {end}\u00a0: donnez les "
                                  "vraies dates du tournoi, aujourd'hui compris."},
    "start_in_future": {"en": "The start date {start} is after today ({today}): a tournament is run live from its "
                              "first day.",
                        "fr": "La date de début {start} est après aujourd'hui ({today})\u00a0: un tournoi se joue en "
                              "direct à partir de son premier jour."},
    "end_before_start": {"en": "The end date {end} is before the start date {start}.",
                         "fr": "La date de fin {end} précède la date de début {start}."},
    "dates_too_far_apart": {"en": "The end date {end} is more than {days} days after the start date {start}: check "
                                  "the year.",
                            "fr": "La date de fin {end} est plus de {days} jours après la date de début {start}\u00a0: "
                                  "vérifiez l'année."},
    "rounds_invalid": {"en": "A tournament has 1 to 12 rounds, not {rounds}.",
                       "fr": "Un tournoi compte de 1 à 12 rondes, pas {rounds}."},
    "cannot_cancel": {"en": "Round {round} of pool {pool} is published: the live run can no longer be cancelled.",
                      "fr": "La ronde {round} de la poule {pool} est publiée\u00a0: le direct ne peut plus être "
                            "annulé."},
}


def notice_text(code: str, params: Mapping[str, object], lang: str = "en",
                names: Callable[[object], str] | None = None) -> str:
    """The sentence for a notice. Player IDs in `player`, `a`, `b`, `lowest` and `players` go through `names`."""
    lang = "fr" if (lang or "").lower().startswith("fr") else "en"
    values = dict(params)
    if names is not None:
        for key in ("player", "a", "b", "lowest"):
            if key in values:
                values[key] = names(values[key])
        if isinstance(values.get("players"), (list, tuple)):
            values["players"] = ", ".join(names(p) for p in values["players"])
    for key, value in values.items():
        if isinstance(value, (list, tuple)):
            values[key] = ", ".join(map(str, value))
    template = MESSAGES.get(code)
    if template is None:
        # A fact the sheet check refuses (a country, a name too long...): the sheet's own words.
        return sheet_text(code=code, params=values, lang=lang) if code in SHEET_MESSAGES else code
    try:
        return template[lang].format(**values)
    except (KeyError, IndexError):
        return code
