"""``castrules new-adapter``: write a runnable adapter skeleton for Python, Node.js or Java.

Each skeleton passes ``castrules smoke`` as written: it speaks protocol v1 (the Python one is also
an in-process engine), declares no features, reports the state as it was set up, and dispatches
every step kind (docs/case-format.md) to a stub that says what the step means and skips the case
until it is written. The templates live in ``templates/``; the step kinds are the model's
(``castrules.model.STEP_TYPES``), each with a hint from here, and a test keeps them equal to the
case schema's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from castrules.model import STEP_TYPES

# step kind -> what the adapter must make its engine do (docs/case-format.md, "Steps")
STEP_HINTS: dict[str, str] = {
    "cast": "cast a spell, 601.2a-i, with every choice taken from the step (targets, modes, x, costs, mana_abilities, pay)",
    "activate_mana": "activate a mana ability outside casting (605.3a): ability index, produce, sacrifice, replacements",
    "activate": "activate a non-mana activated ability (602.2): ability index, x, targets, mana_abilities, pay",
    "attack": "declare attackers (moves to declare_attackers, taps the attackers)",
    "block": "declare blockers: {blocker id: attacker id}",
    "combat_damage": "combat damage is dealt (moves to the combat damage step)",
    "deal_damage": "a test action: source deals amount of noncombat damage to a player or object",
    "move_to": "advance to a later step of the same turn (mana pools empty, 106.4)",
    "next_turn": "end the turn; the next player becomes active at precombat_main after untapping",
    "resolve": "the top object of the stack resolves (choices: x on resolution, an instructed cast)",
    "destroy": "a test action: destroy a permanent",
    "exile": "a test action: exile a permanent or a spell",
    "return_to_hand": "a test action: return a permanent to its owner's hand",
    "sacrifice": "a test action: its controller sacrifices a permanent",
    "blink": "exile a permanent and return it under its owner's control (a new object, 400.7)",
    "return_to_battlefield": "put a card from graveyard, exile or hand onto the battlefield",
    "change_control": "the permanent's controller becomes `to`",
    "change_types": "a test action changing an object's creature types until end of turn (set, add, remove_all)",
    "copy_spell": "put a copy of a spell on the stack (707.10), new_id, optional new targets",
    "copy_spell_for_each": "copy a spell for each player or object it could target (707.10d)",
    "copy_ability": "put a copy of a triggered or activated ability on the stack (707.10), new_id; same source (707.10b)",
    "copy_permanent": "a token that is a copy of a permanent enters (707.2), new_id",
    "become_copy": "the permanent becomes a copy of another permanent (707.2)",
    "special_action": "a special action (116): suspend a card from hand, x chosen before paying",
    "leave_game": "a player leaves the game (concedes)",
    "lose_life": "a test action: the player loses life",
    "gain_life": "a test action: the player gains life",
    "pay_mana_cost": "an effect makes the player pay an object's mana cost (107.3h): the engine finds the payment",
}
# every step kind of the model, in its order: a kind added there gets a stub even before its hint
STEP_KINDS: dict[str, str] = {kind: STEP_HINTS.get(kind, "see docs/case-format.md, Steps") for kind in STEP_TYPES}

LANGUAGES = ("python", "node", "java")
_FILES = {"python": ("castrules_adapter.py", "README.md"), "node": ("castrules-adapter.js", "README.md"),
          "java": ("CastrulesAdapter.java", "README.md")}


class SkeletonError(Exception):
    """The skeleton cannot be written where asked."""


@dataclass(frozen=True)
class Written:
    files: tuple[Path, ...]
    next_steps: tuple[str, ...]


def write_skeleton(lang: str, directory: Path, name: str = "my-engine", force: bool = False) -> Written:
    """Write the ``lang`` skeleton into ``directory`` (created; refused if not empty without force)."""
    if lang not in LANGUAGES:
        raise SkeletonError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name):
        raise SkeletonError(f"engine name {name!r}: expected letters, digits, '.', '_' or '-' (at most 64)")
    if directory.exists() and not directory.is_dir():
        raise SkeletonError(f"{directory} exists and is not a directory")
    if directory.is_dir() and any(directory.iterdir()) and not force:
        raise SkeletonError(f"{directory} is not empty (use --force to write into it anyway)")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for filename in _FILES[lang]:
        text = render(lang, filename, name)
        target = directory / filename
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return Written(tuple(written), next_steps(lang, directory))


def render(lang: str, filename: str, name: str) -> str:
    """A template with the engine name and the step dispatch filled in."""
    template = resources.files("castrules.harness").joinpath("templates", lang, filename + ".tmpl").read_text(encoding="utf-8")
    return (template.replace("@@NAME@@", name)
            .replace("@@DISPATCH@@", _dispatch(lang))
            .replace("@@STUBS@@", _stubs(lang)))


def next_steps(lang: str, directory: Path) -> tuple[str, ...]:
    d = str(directory)
    if lang == "python":
        return (f'castrules smoke --engine "python3 {d}/castrules_adapter.py"',
                f"PYTHONPATH={d} castrules run --engine castrules_adapter:Adapter",
                "then fill in the step_* methods and declare FEATURES (castrules plan --features ...)")
    if lang == "node":
        return (f'castrules smoke --engine "node {d}/castrules-adapter.js"',
                "then fill in the step handlers and declare FEATURES (castrules plan --features ...)")
    return (f"javac -d {d}/build {d}/CastrulesAdapter.java",
            f'castrules smoke --engine "java -cp {d}/build CastrulesAdapter"',
            "then fill in the step handlers and declare FEATURES (castrules plan --features ...)")


def _dispatch(lang: str) -> str:
    if lang == "python":
        return "\n".join(f'        "{k}": self.step_{k},' for k in STEP_KINDS)
    if lang == "node":
        return "\n".join(f"  {k}: step_{k}," for k in STEP_KINDS)
    return "\n".join(f'            case "{k}" -> step_{k}(game, body);' for k in STEP_KINDS)


def _stubs(lang: str) -> str:
    out = []
    for kind, meaning in STEP_KINDS.items():
        if lang == "python":
            out.append(f"    def step_{kind}(self, game: dict, body: dict) -> dict:\n"
                       f'        """{kind}: {meaning}."""\n'
                       f'        raise NotImplementedError("{kind}")\n')
        elif lang == "node":
            out.append(f"// {kind}: {meaning}.\n"
                       f'function step_{kind}(game, body) {{ throw new NotImplemented("{kind}"); }}\n')
        else:
            out.append(f"    /** {kind}: {meaning}. */\n"
                       f"    static Map<String, Object> step_{kind}(Map<String, Object> game, Map<String, Object> body) {{\n"
                       f'        throw new NotImplemented("{kind}");\n    }}\n')
    return "\n".join(out)
