"""Hypothesis strategies for mana symbols, shared by the mana tests."""

from hypothesis import strategies as st

from castrules.oracle.mana import COLOR_PAIRS, Color, ManaSymbol

colors = st.sampled_from(list(Color))
pairs = st.sampled_from(COLOR_PAIRS)


def mana_symbols(max_generic: int, variables: bool):
    """Every kind of symbol that appears in costs; X/Y/Z only when ``variables``."""
    kinds = [
        colors.map(ManaSymbol.colored),
        st.just(ManaSymbol.colorless()),
        st.integers(0, max_generic).map(ManaSymbol.generic),
        st.just(ManaSymbol.snow()),
        pairs.map(lambda p: ManaSymbol.hybrid(*p)),
        colors.map(ManaSymbol.twobrid),
        colors.map(ManaSymbol.colorless_hybrid),
        colors.map(ManaSymbol.phyrexian),
        pairs.map(lambda p: ManaSymbol.hybrid_phyrexian(*p)),
    ]
    if variables:
        kinds.insert(3, st.sampled_from(["X", "Y", "Z"]).map(ManaSymbol.x))
    return st.one_of(*kinds)
