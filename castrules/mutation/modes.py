"""Mutants of who chooses a modal spell's modes: the opponent of "an opponent chooses one"
(601.6), picked by the caster among several (601.6a); and of the targets its modes announce
(601.2c)."""
from __future__ import annotations

from .base import Mutant


def _caster_chooses(real, ctx):
    def mode_chooser(state, spell, spec, name, trace):
        modes = spell.base.modes
        return spec.player if modes is not None and modes.chooser == "opponent" else None
    return mode_chooser


class CasterChoosesOpponentsMode(Mutant):
    description = ("the caster makes the mode choice an opponent should make: the opponent named is ignored, and "
                   "the effects' \"that player\" is the caster (601.6)")
    seams = {"mode_chooser": _caster_chooses}
    witnesses = ("opponent-choices/two-player/misfortune-opponent-picks-the-mode-that-hurts-them",
                 "opponent-choices/three-player/misfortune-a-picks-c-to-choose-the-mode",
                 "opponent-choices/illegal/misfortune-caster-names-himself-to-choose")


def _chooser_unchecked(real, ctx):
    def mode_chooser(state, spell, spec, name, trace):
        return spec.mode_chooser
    return mode_chooser


class ModeChooserNotChecked(Mutant):
    description = ("whoever the cast names chooses the modes: the caster himself, a player who left the game, or an "
                   "opponent of a spell whose caster chooses (601.6, 601.6a, 601.2b)")
    seams = {"mode_chooser": _chooser_unchecked}
    witnesses = ("opponent-choices/illegal/misfortune-caster-names-himself-to-choose",
                 "opponent-choices/illegal/misfortune-chooser-who-left-the-game",
                 "opponent-choices/illegal/chooser-named-for-a-spell-whose-caster-chooses")


def _one_word_unchecked(real, ctx):
    def one_target_word(specs, picked, refs):
        return None
    return one_target_word


class SameObjectTwiceForOneTargetWord(Mutant):
    description = ("one instance of the word \"target\" with several targets (\"up to two target creatures\") may take "
                   "the same object twice (601.2c)")
    seams = {"one_target_word": _one_word_unchecked}
    witnesses = ("escalate/targets/blessed-alliance-untap-mode-cant-name-one-creature-twice",)
