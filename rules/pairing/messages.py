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
        "en": "Round {round} cannot be paired without a rematch. Pair it by hand: two players never meet twice "
              "(the result sheet refuses it), a second game against the spare needs a reason.",
        "fr": "La ronde {round} ne peut pas être appariée sans revanche. Appariez-la à la main : deux joueurs ne "
              "se rencontrent jamais deux fois (la feuille de résultats le refuse), une seconde partie contre la "
              "réserve demande une raison.",
    },
    "elo_levels_required": {
        "en": "{players} players for {ideal} ideal: the charter requires pairing round 1 by Elo levels.",
        "fr": "{players} joueurs pour un nombre idéal de {ideal} : la charte impose d'apparier la ronde 1 par "
              "niveaux Elo.",
    },
    "method_not_allowed": {
        "en": "The method {method} is not allowed here; allowed: {allowed}.",
        "fr": "La méthode {method} n'est pas permise ici ; permises : {allowed}.",
    },
    "method_not_for_round": {
        "en": "A round-1 method ({method}) cannot be chosen for round {round}.",
        "fr": "Une méthode de ronde 1 ({method}) ne peut pas être choisie pour la ronde {round}.",
    },
    "hat_missing": {
        "en": "Put every player in hat 1 or hat 2 first; without a hat: {players}.",
        "fr": "Mettez d'abord chaque joueur dans le chapeau 1 ou 2 ; sans chapeau : {players}.",
    },
    "group_missing": {
        "en": "Players without a group: {players}.",
        "fr": "Joueurs sans groupe : {players}.",
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
                         "fr": "Le nombre de joueurs est pair : pas de joueur de réserve à cette ronde."},
    "free_game_not_allowed": {
        "en": "{player} may not play a free game: only players of the lower half who can no longer reach the "
              "top 4.",
        "fr": "{player} ne peut pas jouer de partie libre : seulement les joueurs de la moitié basse qui ne "
              "peuvent plus atteindre les 4 premières places.",
    },
    # pairing warnings: each says why the rule was bent
    "club_mates": {"en": "{a} and {b} are club-mates: the draw could not keep more clubs apart.",
                   "fr": "{a} et {b} sont du même club : le tirage ne pouvait pas séparer davantage de clubs."},
    "club_mates_swiss": {
        "en": "{a} and {b} are club-mates: when {a} was paired, every other player still free had already met "
              "{a} or would have forced a rematch among the others.",
        "fr": "{a} et {b} sont du même club : quand {a} a été apparié, chaque autre joueur encore libre l'avait "
              "déjà rencontré ou aurait imposé une revanche entre les autres.",
    },
    "club_mates_by_hand": {
        "en": "{a} and {b} are club-mates, paired together by the referee in a round where clubs are kept apart.",
        "fr": "{a} et {b} sont du même club, appariés ensemble par l'arbitre dans une ronde où les clubs sont "
              "séparés.",
    },
    "rematch": {"en": "{a} and {b} have already met: paired again by the referee.",
                "fr": "{a} et {b} se sont déjà rencontrés : l'arbitre les apparie de nouveau."},
    "spare_not_lowest": {
        "en": "The spare plays {player}, not {lowest}: pairing the spare with {lowest}, the lowest player who has "
              "not met it, would force a rematch among the others.",
        "fr": "La réserve joue contre {player}, pas contre {lowest} : apparier la réserve avec {lowest}, le "
              "dernier joueur qui ne l'a pas rencontrée, imposerait une revanche entre les autres.",
    },
    "groups_cross_pair": {
        "en": "{a} and {b} play across the two groups: both groups have an odd number of players and there is "
              "no spare.",
        "fr": "{a} et {b} jouent d'un groupe à l'autre : les deux groupes ont un nombre impair de joueurs et il "
              "n'y a pas de réserve.",
    },
    # round 1's notes: the system from round 2 on (rules.pairing.system_note)
    "system_default": {
        "en": "From round 2: {system}, the default when the number of players ({players}) is exactly the ideal "
              "number.",
        "fr": "À partir de la ronde 2 : {system}, par défaut quand le nombre de joueurs ({players}) est "
              "exactement le nombre idéal.",
    },
    "system_chosen": {
        "en": "From round 2: {system}, the referee's choice ({players} players, exactly the ideal number).",
        "fr": "À partir de la ronde 2 : {system}, au choix de l'arbitre ({players} joueurs, exactement le nombre "
              "idéal).",
    },
    "system_charter": {
        "en": "From round 2: {system}, as the charter requires with {players} players for an ideal number of "
              "{ideal}.",
        "fr": "À partir de la ronde 2 : {system}, comme la charte l'impose avec {players} joueurs pour un nombre "
              "idéal de {ideal}.",
    },
    "swiss_choice_not_applied": {
        "en": "From round 2: {system}, as the charter requires with {players} players for an ideal number of "
              "{ideal}; the choice of {swiss} made at the start applies only with exactly {ideal} players.",
        "fr": "À partir de la ronde 2 : {system}, comme la charte l'impose avec {players} joueurs pour un nombre "
              "idéal de {ideal} ; le choix du {swiss} fait au départ ne vaut qu'avec exactement {ideal} joueurs.",
    },
    # the live tournament's own refusals
    "published": {"en": "The tournament is published: a correction is a new sheet.",
                  "fr": "Le tournoi est publié : une correction passe par une nouvelle feuille."},
    "handed_over": {"en": "The day is finished in the spreadsheet: upload the sheet, or take the day back on the site.",
                    "fr": "La journée se termine dans le tableur\u00a0: envoyez la feuille, ou reprenez la journée sur "
                          "le site."},
    "sheet_imported_after_hand_over": {
        "en": "A sheet of this tournament is imported: its results come from the sheet now (a correction is a new "
              "sheet).",
        "fr": "Une feuille de ce tournoi est importée\u00a0: ses résultats viennent désormais de la feuille (une "
              "correction passe par une nouvelle feuille)."},
    "all_rounds_paired": {"en": "All {rounds} rounds of pool {pool} are paired.",
                          "fr": "Les {rounds} rondes de la poule {pool} sont appariées."},
    "round_incomplete": {"en": "Round {round} of pool {pool} still has tables without a result.",
                         "fr": "La ronde {round} de la poule {pool} a encore des tables sans résultat."},
    "round_not_published": {"en": "Round {round} of pool {pool} is not published yet.",
                            "fr": "La ronde {round} de la poule {pool} n'est pas encore publiée."},
    "round_published": {"en": "Round {round} is published: its pairs can no longer change.",
                        "fr": "La ronde {round} est publiée : ses appariements ne peuvent plus changer."},
    "too_few_players": {"en": "Pool {pool} needs at least two players.",
                        "fr": "La poule {pool} doit compter au moins deux joueurs."},
    "no_such_table": {"en": "Round {round} has no table {table}.", "fr": "La ronde {round} n'a pas de table {table}."},
    "no_such_pool": {"en": "There is no pool {pool}.", "fr": "Il n'y a pas de poule {pool}."},
    "reason_required": {"en": "A rule is bent: {warnings} Give the reason, which the tournament's page shows.",
                        "fr": "Une règle n'est pas respectée : {warnings} Donnez la raison, que la page du tournoi "
                              "affichera."},
    "result_changed_reason": {"en": "Round {round} is followed by a paired round: give the reason for changing "
                                    "this result.",
                              "fr": "La ronde {round} est suivie d'une ronde appariée : donnez la raison de ce "
                                    "changement de résultat."},
    "fault": {"en": "{message}", "fr": "{message_fr}"},  # a sheet check's sentence, in both languages
    "free_against_spare": {"en": "A game against the spare cannot be a free game.",
                           "fr": "Une partie contre la réserve ne peut pas être une partie libre."},
    "withdraw_round": {"en": "Round {round} is already published for this player: withdraw from round {next} on.",
                       "fr": "La ronde {round} est déjà publiée pour ce joueur : retirez-le à partir de la "
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
                     "fr": "La poule {pool} a joué {played} rondes sur {rounds} : publiez quand toutes les rondes "
                           "sont complètes."},
    "self_entry_closed": {"en": "The referee enters the results of this tournament.",
                          "fr": "L'arbitre saisit les résultats de ce tournoi."},
    "not_your_table": {"en": "You do not play at this table.", "fr": "Vous ne jouez pas à cette table."},
    "result_already_in": {"en": "This table's result is already in; ask the referee to change it.",
                          "fr": "Le résultat de cette table est déjà saisi ; demandez à l'arbitre de le changer."},
    "hat_invalid": {"en": "A hat is 1 or 2.", "fr": "Un chapeau vaut 1 ou 2."},
    "not_started": {"en": "The tournament has not started: pair round 1 first.",
                    "fr": "Le tournoi n'a pas commencé : appariez d'abord la ronde 1."},
    "method_round_one_only": {"en": "The round-1 method is chosen for round 1 only.",
                              "fr": "La méthode de ronde 1 ne se choisit que pour la ronde 1."},
    # rounds: changes, undo (PAIRING.md §5)
    "round_gone": {"en": "This round is no longer proposed (drawn again or withdrawn): nothing was published.",
                   "fr": "Cette ronde n'est plus proposée (tirée de nouveau ou retirée) : rien n'a été publié."},
    "round_already_published": {"en": "Round {round} of pool {pool} is already published: nothing more was done.",
                                "fr": "La ronde {round} de la poule {pool} est déjà publiée : rien de plus n'a été "
                                      "fait."},
    "changes_would_be_lost": {
        "en": "Pairing again discards the changes made to this proposal (swaps and chosen tables: {count}). "
              "Confirm that they are discarded to pair again.",
        "fr": "Apparier de nouveau efface les changements apportés à cette proposition (échanges et tables "
              "choisies : {count}). Confirmez qu'ils sont effacés pour apparier de nouveau.",
    },
    "no_round_to_withdraw": {"en": "Pool {pool} has no round to withdraw.",
                             "fr": "La poule {pool} n'a aucune ronde à retirer."},
    "withdraw_reason_required": {
        "en": "Give the reason for withdrawing round {round}: the tournament's public page shows it.",
        "fr": "Donnez la raison du retrait de la ronde {round} : la page publique du tournoi l'affiche.",
    },
    "round_has_results": {
        "en": "Round {round} of pool {pool} has results entered ({count}): confirm that they are discarded to "
              "withdraw it.",
        "fr": "La ronde {round} de la poule {pool} a des résultats saisis ({count}) : confirmez qu'ils sont "
              "effacés pour la retirer.",
    },
    "rematch_unpublishable": {
        "en": "{a} and {b} have already met: two players never meet twice (charter App. 2 §2.a.i), and the result "
              "sheet the tournament is published as refuses it. Pair them otherwise.",
        "fr": "{a} et {b} se sont déjà rencontrés : deux joueurs ne se rencontrent jamais deux fois (charte, "
              "ann. 2 §2.a.i), et la feuille de résultats qui publie le tournoi le refuse. Appariez-les autrement.",
    },
    "publish_met_twice": {
        "en": "{a} and {b} meet twice: the result sheet refuses it (charter App. 2 §2.a.i).",
        "fr": "{a} et {b} se rencontrent deux fois : la feuille de résultats le refuse (charte, ann. 2 §2.a.i).",
    },
    "not_in_round": {"en": "{player} does not play in this round.", "fr": "{player} ne joue pas dans cette ronde."},
    "same_table": {"en": "{a} and {b} already play each other.",
                   "fr": "{a} et {b} jouent déjà l'un contre l'autre."},
    "table_published": {"en": "Table {table} is in a published round: its number can no longer change.",
                        "fr": "La table {table} est dans une ronde publiée : son numéro ne peut plus changer."},
    "same_table_number": {"en": "This pair already plays at table {table}.",
                          "fr": "Cette paire joue déjà à la table {table}."},
    # results
    "result_conflict": {
        "en": "Table {table} already has a result, entered by {by} at {at}: {result}. Nothing was changed: send "
              "yours again to replace it.",
        "fr": "La table {table} a déjà un résultat, saisi par {by} à {at} : {result}. Rien n'a été changé : "
              "renvoyez le vôtre pour le remplacer.",
    },
    "result_conflict_players": {
        "en": "Table {table} already has a result, entered by its two players at {at}: {result}. Nothing was "
              "changed: send yours again to replace it.",
        "fr": "La table {table} a déjà un résultat, saisi par ses deux joueurs à {at} : {result}. Rien n'a été "
              "changé : renvoyez le vôtre pour le remplacer.",
    },
    "winner_lost_more": {
        "en": "Table {table}: {winner} wins with more losses ({winner_losses}%) than {loser} ({loser_losses}%). "
              "Check the losses; confirm to record the result as it is.",
        "fr": "Table {table} : {winner} gagne avec plus de pertes ({winner_losses} %) que {loser} "
              "({loser_losses} %). Vérifiez les pertes ; confirmez pour enregistrer le résultat tel quel.",
    },
    "spare_table_referee": {
        "en": "A game against the spare is entered by the referee: no opponent can confirm it.",
        "fr": "Une partie contre la réserve est saisie par l'arbitre : aucun adversaire ne peut la confirmer.",
    },
    # the preview of the publication (tournaments.live.publication.live_preview), players named
    "publish_same_club": {
        "en": "{a} and {b}, both of {club}, play each other in round {round}: the charter asks to avoid this in the "
              "first round (the first two from 4 rounds up).",
        "fr": "{a} et {b}, tous deux du club {club}, jouent l'un contre l'autre à la ronde {round} : la charte "
              "demande de l'éviter à la première ronde (aux deux premières à partir de 4 rondes).",
    },
    "publish_new_matches_known": {
        "en": "{player}, new to the federation, has the same name and club as {known} (ID {id}): if it is the same "
              "person, add {known} instead before publishing, or {player} gets a new federation ID.",
        "fr": "{player}, nouveau dans la fédération, a le même nom et le même club que {known} (identifiant "
              "{id}) : si c'est la même personne, ajoutez plutôt {known} avant de publier, sinon {player} reçoit "
              "un nouvel identifiant fédéral.",
    },
    "publish_name_differs": {
        "en": "{sheet_name} of the day's list is {site_name} (ID {id}) in the federation: the federation's name "
              "stands.",
        "fr": "{sheet_name} de la liste du jour s'appelle {site_name} (identifiant {id}) dans la fédération : le "
              "nom de la fédération est conservé.",
    },
    "publish_without_game": {"en": "{player} has no game: the publication does not list them.",
                             "fr": "{player} n'a aucune partie : la publication ne le mentionne pas."},
    "publish_issue": {"en": "{message}", "fr": "{message_fr}"},
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


# The systems from round 2 on, as notes and refusals name them (rules.pairing.model.SYSTEMS).
SYSTEM_WORDS = {
    "en": {"classic": "classic Swiss", "adapted": "adapted Swiss", "groups": "two groups"},
    "fr": {"classic": "système suisse classique", "adapted": "système suisse adapté", "groups": "deux groupes"},
}
PLAYER_KEYS = ("player", "a", "b", "lowest", "winner", "loser")


def notice_text(code: str, params: Mapping[str, object], lang: str = "en",
                names: Callable[[object], str] | None = None) -> str:
    """The sentence for a notice. Player IDs in `player`, `a`, `b`, `lowest`, `winner`, `loser` and `players` go
    through `names`; `warnings` (a list of {"code", "params"}) is worded in turn, one sentence after another;
    `system` and `swiss` are named in the reader's language."""
    lang = "fr" if (lang or "").lower().startswith("fr") else "en"
    values = dict(params)
    if names is not None:
        for key in PLAYER_KEYS:
            if key in values:
                values[key] = names(values[key])
        if isinstance(values.get("players"), (list, tuple)):
            values["players"] = ", ".join(names(p) for p in values["players"])
    if isinstance(values.get("warnings"), (list, tuple)):
        values["warnings"] = " ".join(
            notice_text(w.get("code", ""), w.get("params", {}), lang, names) if isinstance(w, Mapping) else str(w)
            for w in values["warnings"])
    if "message" in values:
        values.setdefault("message_fr", values["message"])
    for key in ("system", "swiss"):
        if key in values:
            values[key] = SYSTEM_WORDS[lang].get(str(values[key]), values[key])
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
