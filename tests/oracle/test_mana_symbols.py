"""Mana symbols (107.4), their spelling, colors (105.2, 202.2d) and mana value (202.3)."""

import pytest

from castrules.oracle.mana import COLOR_PAIRS, Color, ManaCost, ManaCostError, ManaSymbol, ManaType, SymbolKind
from castrules.oracle.mana import card_color_order, pair_order

W, U, B, R, G = Color.W, Color.U, Color.B, Color.R, Color.G


@pytest.mark.parametrize(
    "text, kind, colors, value",
    [
        ("{W}", SymbolKind.COLORED, {W}, 1),
        ("{C}", SymbolKind.COLORLESS, set(), 1),
        ("{0}", SymbolKind.GENERIC, set(), 0),
        ("{16}", SymbolKind.GENERIC, set(), 16),
        ("{X}", SymbolKind.X, set(), 0),
        ("{Y}", SymbolKind.X, set(), 0),
        ("{S}", SymbolKind.SNOW, set(), 1),
        ("{W/U}", SymbolKind.HYBRID, {W, U}, 1),
        ("{G/U}", SymbolKind.HYBRID, {G, U}, 1),
        ("{2/B}", SymbolKind.TWOBRID, {B}, 2),  # 202.3f: the larger half
        ("{C/R}", SymbolKind.COLORLESS_HYBRID, {R}, 1),
        ("{B/P}", SymbolKind.PHYREXIAN, {B}, 1),  # 202.3g
        ("{R/W/P}", SymbolKind.HYBRID_PHYREXIAN, {R, W}, 1),
    ],
)
def test_each_kind_parses_prints_and_counts(text, kind, colors, value):
    symbol = ManaSymbol.parse(text)
    assert symbol.kind is kind
    assert symbol.colors == frozenset(colors)
    assert symbol.mana_value() == value
    assert str(symbol) == text


def test_x_counts_its_announced_value_only_when_given():
    x = ManaSymbol.x()
    assert x.mana_value(None) == 0  # 202.3e: off the stack
    assert x.mana_value(5) == 5
    with pytest.raises(ValueError):
        x.mana_value(-1)  # 107.1b


def test_all_107_4_symbols_are_accepted():
    # The ten hybrids, five of each monocolored kind and ten hybrid Phyrexian of 107.4.
    texts = [f"{{{a.value}/{b.value}}}" for a, b in COLOR_PAIRS]
    texts += [f"{{{a.value}/{b.value}/P}}" for a, b in COLOR_PAIRS]
    for c in "WUBRG":
        texts += [f"{{{c}}}", f"{{2/{c}}}", f"{{C/{c}}}", f"{{{c}/P}}"]
    for text in texts:
        assert str(ManaSymbol.parse(text)) == text
    assert len(set(texts)) == 40


@pytest.mark.parametrize(
    "text, position",
    [
        ("{", 1),
        ("{W", 2),
        ("{Q}", 0),
        ("{T}", 0),
        ("{W/W}", 0),
        ("{2/2}", 0),
        ("{P}", 0),
        ("{H}", 0),
        ("{W/U/B}", 0),
        ("{U/W}", 0),  # printed order is {W/U}
        ("{W/2}", 0),
        ("{P/W}", 0),
        ("{w}", 0),  # upper case only
        ("{01}", 0),
        ("{}", 0),
        ("{ W}", 0),
        ("{½}", 0),
        ("W", 0),
        ("{1}{", 4),
        ("{1}}", 3),
        ("{2}{W/Q}", 3),
        ("{1}{W{U}", 5),
        ("{W} {U}", 3),
    ],
)
def test_malformed_costs_name_the_text_and_position(text, position):
    with pytest.raises(ManaCostError) as caught:
        ManaCost.parse(text)
    error = caught.value
    assert error.text == text
    assert error.position == position
    assert error.expected
    assert str(error).startswith(f"malformed mana cost {text!r} at position {position}: expected ")


def test_tap_symbol_error_explains_itself():
    with pytest.raises(ManaCostError, match=r"tap symbol \(107\.5\)"):
        ManaCost.parse("{1}{T}")


def test_parse_rejects_non_strings():
    with pytest.raises(TypeError):
        ManaCost.parse(None)  # type: ignore[arg-type]


def test_constructors_normalize_pairs_but_fields_are_validated():
    assert ManaSymbol.hybrid(U, W) == ManaSymbol.parse("{W/U}")
    assert ManaSymbol.hybrid_phyrexian(W, R) == ManaSymbol.parse("{R/W/P}")
    with pytest.raises(ValueError):
        ManaSymbol(SymbolKind.HYBRID, (U, W))
    with pytest.raises(ValueError):
        ManaSymbol(SymbolKind.COLORED, (W, U))
    with pytest.raises(ValueError):
        ManaSymbol.generic(-1)
    with pytest.raises(ValueError):
        ManaSymbol.x("Q")


def test_accepted_types_and_halves():
    assert ManaSymbol.parse("{W/U}").accepts() == {ManaType.W, ManaType.U}
    assert ManaSymbol.parse("{C/G}").accepts() == {ManaType.C, ManaType.G}
    assert ManaSymbol.parse("{C}").accepts() == {ManaType.C}
    assert ManaSymbol.parse("{2/R}").halves == ("2", "R")
    assert ManaSymbol.parse("{C/R}").halves == ("C", "R")
    assert ManaSymbol.parse("{B/G/P}").halves == ("B", "G")
    assert ManaSymbol.parse("{B/P}").halves == ()


def test_pair_order_is_the_printed_one():
    printed = ["W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U"]
    assert ["/".join(c.value for c in p) for p in COLOR_PAIRS] == printed
    for a, b in COLOR_PAIRS:
        assert pair_order(b, a) == (a, b)


@pytest.mark.parametrize(
    "colors, printed",
    [
        ("RW", "RW"),
        ("WB", "WB"),
        ("GWU", "GWU"),  # Bant
        ("WUB", "WUB"),  # Esper
        ("WBG", "WBG"),  # Abzan
        ("URW", "URW"),  # Jeskai
        ("RWB", "RWB"),  # Mardu
        ("GUR", "GUR"),  # Temur
        ("BGU", "BGU"),  # Sultai
        ("UBRG", "UBRG"),
        ("WUBR", "WUBR"),
        ("RGWU", "RGWU"),
        ("GRBUW", "WUBRG"),
        ("G", "G"),
        ("", ""),
    ],
)
def test_card_color_order(colors, printed):
    result = card_color_order(Color(c) for c in colors)
    assert "".join(c.value for c in result) == printed
