"""The rating rulesets, as plain data (RULES.md §1).

Terms
-----
ruleset
    Everything that differs between the rating systems the site knows: initial rating, scale, K bands,
    gap rule, result values, rating period, rounding, ranks and the inactivity adjustment. Four ship;
    adding a fifth means adding a `Ruleset` value to `RULESETS`, never a new code path.
scale (D)
    The divisor in the expected score P_A = 1 / (1 + 10^((N_B - N_A) / D)).
K
    The most one game can move a rating. Chosen from the player's rating and rated games by the first
    `KBand` whose conditions all hold (the last band has none, so one always does).
games
    Rated games the player had played before the game being rated.
gap rule
    When N_A - N_B >= gap, a positive change of A (the stronger player) becomes 0; a negative one stays.
result value (S)
    What each side of a result code scores for Elo: code -> (S_A, S_B). Forfeit codes are part of the
    result sheet's vocabulary but are never rated.
rating period
    'game': games are rated one after another, each with the ratings left by the previous one.
    'tournament': every game of a tournament uses the pre-tournament ratings and game counts; each player's
    changes are summed and rounded once.
rounding
    'truncate': toward zero (35.76 -> 35, -14.2 -> -14). 'half_away': half away from zero (8.5 -> 9).
rank
    A title read from the rating and the games played (RULES.md §4); `unproven_rank` (the Seneschal) is
    given to a player whose rating reaches the first band that needs games but who meets no band's count.
inactivity adjustment
    At the close of a year, an inactive player's rating drops by the amount of the first step whose
    threshold the rating exceeds, never below `inactivity_floor` when there is one.
scoring
    How a game counts in a tournament's score (rules.scoring): 'losses', the charter's App. 4 table from the
    result and the losses (AdlG); 'values', the result value S (Battle Empire, classic Elo).
penalties, championship
    Whether referees' penalty points are taken off scores (charter App. 7 §2), and whether the ruleset's
    tournaments give championship points (charter App. 6): both are L'Art de la Guerre's.
rating system
    What a result sheet names (`adlg`, `battle-empire`): a list of its own, rated by one ruleset. The
    installation's systems and their rulesets are rows of the database; SYSTEM_RULESETS gives each sheet code
    the ruleset it ships with, and the result codes its sheet accepts.
expected-score range
    Rating differences beyond +/- 10 x scale are treated as +/- 10 x scale (P moves by less than 1e-10
    beyond that), so the engine can precompute every expected score in a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

# The stand-in for the odd player of a pool (charter App. 2 §2.b): rated at `Ruleset.spare_rating`, never changed,
# never listed. The one definition of its ID.
SPARE_ID = 99
# The spare's name in the official workbook, the read API and the commands (the pages translate it).
SPARE_NAME = "Spare"

PERIODS = ("game", "tournament")
SCORINGS = ("losses", "values")
ROUNDINGS = ("truncate", "half_away")
# How many scale units of rating difference the expected score distinguishes (see module docstring).
DIFF_LIMIT_SCALES = 10


@dataclass(frozen=True, slots=True)
class KBand:
    """K for the players meeting every condition given (None means no condition)."""

    k: int
    min_games: int | None = None
    max_games: int | None = None
    min_rating: int | None = None
    max_rating: int | None = None

    def applies(self, rating: int, games: int) -> bool:
        return (
            (self.min_games is None or games >= self.min_games)
            and (self.max_games is None or games <= self.max_games)
            and (self.min_rating is None or rating >= self.min_rating)
            and (self.max_rating is None or rating <= self.max_rating)
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """A rated result code and what each side scores for Elo."""

    code: str
    a: float
    b: float


@dataclass(frozen=True, slots=True)
class Rank:
    """A title; `min_rating` None means the lowest band, open below."""

    code: str
    name_en: str
    name_fr: str
    min_rating: int | None
    min_games: int = 0


@dataclass(frozen=True, slots=True)
class InactivityStep:
    """Ratings strictly above `above` lose `amount`."""

    above: int
    amount: int


@dataclass(frozen=True)
class Ruleset:
    code: str
    name: str
    initial_rating: int
    scale: int
    k_bands: tuple[KBand, ...]
    gap: int | None
    outcomes: tuple[Outcome, ...]
    forfeits: frozenset[str]
    period: str
    rounding: str
    ranks: tuple[Rank, ...]
    unproven_rank: Rank | None = None
    inactivity: tuple[InactivityStep, ...] = ()
    inactivity_floor: int | None = None
    spare_rating: int = 1000
    scoring: str = "values"
    penalties: bool = False
    championship: bool = False
    result_values: Mapping[str, tuple[float, float]] = field(
        init=False, compare=False, hash=False, repr=False
    )

    def __post_init__(self) -> None:
        values = {o.code: (float(o.a), float(o.b)) for o in self.outcomes}
        object.__setattr__(self, "result_values", MappingProxyType(values))
        problems = _problems(self)
        if problems:
            raise ValueError(f"ruleset {self.code!r}: " + "; ".join(problems))

    @property
    def diff_limit(self) -> int:
        return DIFF_LIMIT_SCALES * self.scale

    @property
    def codes(self) -> frozenset[str]:
        """Every result code of the sheet's vocabulary, rated or not."""
        return frozenset(self.result_values) | self.forfeits

    @property
    def result_codes(self) -> tuple[str, ...]:
        """The sheet's result codes in the order referees read them: the rated ones, then the forfeits."""
        return (*(o.code for o in self.outcomes), *sorted(self.forfeits))

    @property
    def max_result_value(self) -> float:
        return max(max(o.a, o.b) for o in self.outcomes)


def _problems(ruleset: Ruleset) -> list[str]:
    # Validated once at import: a broken data entry must fail loudly, not rate games strangely.
    problems = []
    if ruleset.period not in PERIODS:
        problems.append(f"period must be one of {PERIODS}")
    if ruleset.scoring not in SCORINGS:
        problems.append(f"scoring must be one of {SCORINGS}")
    if ruleset.rounding not in ROUNDINGS:
        problems.append(f"rounding must be one of {ROUNDINGS}")
    if not ruleset.k_bands or ruleset.k_bands[-1] != KBand(ruleset.k_bands[-1].k):
        problems.append("the last K band must have no condition")
    if ruleset.gap is not None and not 0 < ruleset.gap <= ruleset.diff_limit:
        problems.append("gap must be positive and within the expected-score range")
    if len(ruleset.result_values) != len(ruleset.outcomes):
        problems.append("result codes must be unique")
    if ruleset.forfeits & set(ruleset.result_values):
        problems.append("a forfeit code cannot also be rated")
    floors = [r.min_rating for r in ruleset.ranks]
    if not floors or floors[0] is not None or floors[1:] != sorted(set(floors[1:]) - {None}):
        problems.append("ranks must start with an open band (min_rating None) then rise in rating")
    if [s.above for s in ruleset.inactivity] != sorted((s.above for s in ruleset.inactivity), reverse=True):
        problems.append("inactivity steps must be in decreasing order of threshold")
    return problems


class UnknownRuleset(KeyError):
    def __str__(self) -> str:
        return f"unknown ruleset {self.args[0]!r}; known: {', '.join(sorted(RULESETS))}"


WIN_DRAW_LOSS = (Outcome("A", 1, 0), Outcome("B", 0, 1), Outcome("D", 0.5, 0.5))
# DD, the double demoralisation, is a draw for Elo; FA/FB are forfeits won by A/B.
ADLG_OUTCOMES = (*WIN_DRAW_LOSS, Outcome("DD", 0.5, 0.5))
ADLG_FORFEITS = frozenset({"FA", "FB"})
ADLG_K = (KBand(50, max_games=9), KBand(15, min_rating=1400), KBand(30))


def _adlg_ranks(names: dict[str, tuple[str, str]], *, grand_master: int, strategist: int) -> tuple[Rank, ...]:
    ladder = [
        ("steward", None, 0), ("militia", 700, 0), ("reservist", 800, 0), ("soldier", 900, 0),
        ("knight", 1100, 0), ("champion", 1200, 0), ("master", 1300, 10),
        ("grand_master", grand_master, 20), ("strategist", strategist, 30),
    ]  # fmt: skip
    return tuple(Rank(code, *names[code], min_rating, games) for code, min_rating, games in ladder)


ADLG_2018 = Ruleset(
    code="adlg-2018",
    name="L'Art de la Guerre, charter v3 (2018)",
    initial_rating=1000,
    scale=500,
    k_bands=ADLG_K,
    gap=500,
    outcomes=ADLG_OUTCOMES,
    forfeits=ADLG_FORFEITS,
    period="game",
    rounding="truncate",
    ranks=_adlg_ranks(
        {
            "steward": ("Steward", "Intendant"),
            "militia": ("Militia", "Milicien"),
            "reservist": ("Reservist", "Réserviste"),
            "soldier": ("Soldier", "Soldat"),
            "knight": ("Knight", "Chevalier"),
            "champion": ("Champion", "Champion"),
            "master": ("Master", "Maître"),
            "grand_master": ("Grand Master", "Grand Maître"),
            "strategist": ("Strategist", "Stratège"),
        },
        grand_master=1400,
        strategist=1500,
    ),
    unproven_rank=Rank("seneschal", "Seneschal", "Sénéchal", 1300),
    inactivity=(InactivityStep(1300, 100), InactivityStep(1100, 50)),
    scoring="losses",
    penalties=True,
    championship=True,
)

# The older annex: the same Elo and scores; the ladder's names, Strategist from 1600, and a gentler downgrade.
ADLG_ANNEX_A = replace(
    ADLG_2018,
    code="adlg-annex-a",
    name="L'Art de la Guerre, ELO annex A (before 2018)",
    ranks=_adlg_ranks(
        {
            "steward": ("Quartermaster", "Intendant"),
            "militia": ("Militiaman", "Milicien"),
            "reservist": ("Reservist", "Réserviste"),
            "soldier": ("Soldier", "Soldat"),
            "knight": ("Knight", "Chevalier"),
            "champion": ("Champion", "Champion"),
            "master": ("Master", "Maître"),
            "grand_master": ("Great Master", "Grand Maître"),
            "strategist": ("Strategist", "Stratège"),
        },
        grand_master=1400,
        strategist=1600,
    ),
    inactivity=(InactivityStep(1000, 100),),
    inactivity_floor=1000,
)

BATTLE_EMPIRE = Ruleset(
    code="battle-empire",
    name="Battle Empire",
    initial_rating=1000,
    scale=500,
    k_bands=(KBand(30, max_games=7), KBand(30, min_rating=1400), KBand(60)),
    gap=None,
    outcomes=(
        Outcome("A", 1, 0),
        Outcome("A+", 1.25, 0),
        Outcome("A++", 1.5, 0),
        Outcome("B", 0, 1),
        Outcome("B+", 0, 1.25),
        Outcome("B++", 0, 1.5),
        Outcome("D", 0.5, 0.5),
    ),  # fmt: skip
    forfeits=frozenset(),
    period="game",
    rounding="half_away",
    ranks=(
        Rank("sergeant", "Sergeant", "Sergent", None),
        Rank("lieutenant", "Lieutenant", "Lieutenant", 700),
        Rank("captain", "Captain", "Capitaine", 800),
        Rank("battalion_chief", "Battalion Chief", "Chef de bataillon", 900),
        Rank("colonel", "Colonel", "Colonel", 1000),
        Rank("brigadier_general", "Brigadier General", "Général de brigade", 1100),
        Rank("division_general", "Division General", "Général de division", 1200),
        Rank("general_in_chief", "General in Chief", "Général en chef", 1300),
        Rank("marshal", "Marshal of the Empire", "Maréchal d'Empire", 1400),
    ),
    inactivity=(InactivityStep(1300, 100), InactivityStep(1100, 50)),
)

CLASSIC_ELO = Ruleset(
    code="classic-elo",
    name="Classic Elo (FIDE-like, tournament period)",
    initial_rating=1500,
    scale=400,
    k_bands=(KBand(16, min_rating=2400), KBand(32)),
    gap=None,
    outcomes=WIN_DRAW_LOSS,
    forfeits=frozenset(),
    period="tournament",
    rounding="half_away",
    ranks=(
        Rank("unclassed", "Unclassed", "Non classé", None),
        Rank("class_e", "Class E", "Classe E", 1000),
        Rank("class_d", "Class D", "Classe D", 1200),
        Rank("class_c", "Class C", "Classe C", 1400),
        Rank("class_b", "Class B", "Classe B", 1600),
        Rank("class_a", "Class A", "Classe A", 1800),
        Rank("expert", "Expert", "Expert", 2000),
        Rank("master", "Master", "Maître", 2200),
        Rank("senior_master", "Senior Master", "Maître senior", 2400),
    ),
)

DEFAULT_RULESET = ADLG_2018.code
RULESETS: dict[str, Ruleset] = {r.code: r for r in (ADLG_2018, ADLG_ANNEX_A, BATTLE_EMPIRE, CLASSIC_ELO)}
# The rating systems a result sheet names, with the ruleset each ships with (RESULT_SHEET.md `Rating system`).
SYSTEM_RULESETS: dict[str, str] = {"adlg": ADLG_2018.code, "battle-empire": BATTLE_EMPIRE.code}
SYSTEM_NAMES: dict[str, str] = {"adlg": "AdlG", "battle-empire": "Battle Empire"}


def get_ruleset(code: str = DEFAULT_RULESET) -> Ruleset:
    try:
        return RULESETS[code]
    except KeyError:
        raise UnknownRuleset(code) from None
