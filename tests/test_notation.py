"""Card and action notation: every value round-trips through its text, input is
forgiving about case and suit symbols, and malformed text is a NotationError that
says what was wrong and what is allowed."""

from __future__ import annotations

import itertools
import pickle

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from eights import CARDS, DRAW, JOKER, PASS, TAKE, Action, Card, Kind, NotationError, Rank, Suit

ALL_ACTIONS: list[Action] = [
    Action.play(card, suit, announce)
    for card, suit, announce in itertools.product(CARDS, (None, *Suit), (False, True))
] + [DRAW, PASS, TAKE]

SUIT_FORMS = {
    Suit.CLUBS: ("c", "C", "♣", "♧"),
    Suit.DIAMONDS: ("d", "D", "♦", "♢"),
    Suit.HEARTS: ("h", "H", "♥", "♡"),
    Suit.SPADES: ("s", "S", "♠", "♤"),
}


def rank_forms(rank: Rank) -> tuple[str, ...]:
    letter = rank.letter
    forms = (letter, letter.lower()) if letter.isalpha() else (letter,)
    return (*forms, "10") if rank is Rank.TEN else forms


# --------------------------------------------------------------------------- cards


def test_there_are_53_distinct_cards() -> None:
    assert len(CARDS) == 53
    assert len({str(c) for c in CARDS}) == 53
    assert CARDS[52] is JOKER
    assert JOKER.rank is Rank.JOKER and JOKER.suit is None


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_card_round_trips_to_the_same_object(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.pretty()) is card


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_card_repr_is_runnable(card: Card) -> None:
    assert eval(repr(card), {"Card": Card}) is card


@pytest.mark.parametrize("card", CARDS[:52], ids=str)
def test_card_text_is_rank_letter_then_suit_letter(card: Card) -> None:
    assert card.suit is not None
    assert str(card) == card.rank.letter + card.suit.letter
    assert Card.of(card.rank, card.suit) is card


@pytest.mark.parametrize("card", CARDS[:52], ids=str)
def test_every_spelling_of_a_card_reads_the_same(card: Card) -> None:
    assert card.suit is not None
    for rank_text, suit_text in itertools.product(rank_forms(card.rank), SUIT_FORMS[card.suit]):
        assert Card.parse(rank_text + suit_text) is card, rank_text + suit_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10h", "Th"),
        ("TH", "Th"),
        ("th", "Th"),
        ("10♥", "Th"),
        ("Q♠", "Qs"),
        ("qs", "Qs"),
        ("A♣", "Ac"),
        ("a♦", "Ad"),
        ("  7h  ", "7h"),
        ("X", "X"),
        ("x", "X"),
        ("🃏", "X"),
    ],
)
def test_card_input_forms(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_joker_text_and_pretty() -> None:
    assert str(JOKER) == "X"
    assert JOKER.pretty() == "🃏"
    assert Card.parse("Td").pretty() == "10♦"


@pytest.mark.parametrize("text", ["", "1h", "Zz", "7", "7x", "11h", "h7", "7hh", "=s", "Xz", "X1", "X♥♥"])
def test_malformed_card_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


@pytest.mark.parametrize("text", ["", "1h", "Zz", "7", "7x", "11h", "7hh"])
def test_malformed_card_message_names_the_whole_text(text: str) -> None:
    # The whole text the user wrote, not just the part that failed: "Zz" in a
    # record's deck must be findable from the message.
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message, message


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        ("", "7h"),
        ("7", "7h"),
        ("1h", "J Q K"),
        ("Zz", "J Q K"),
        ("7x", "c, d, h, s"),
    ],
)
def test_malformed_card_message_lists_what_is_allowed(text: str, allowed: str) -> None:
    with pytest.raises(NotationError, match=allowed):
        Card.parse(text)


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Card.parse("Zz")


def test_suit_and_rank_parse() -> None:
    assert Suit.parse("S") is Suit.SPADES
    assert Suit.parse("♥") is Suit.HEARTS
    assert Rank.parse("10") is Rank.TEN
    assert Rank.parse("q") is Rank.QUEEN
    with pytest.raises(NotationError, match="c, d, h, s"):
        Suit.parse("x")
    with pytest.raises(NotationError, match="T \\(or 10\\)"):
        Rank.parse("11")


# --------------------------------------------------------------------------- actions


@pytest.mark.parametrize("text", ["7h", "8h=s", "5c!", "8h=s!", "X", "X=d!", "Th", "draw", "pass", "take"])
def test_action_text_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) is action


def test_every_action_value_round_trips() -> None:
    assert len(set(ALL_ACTIONS)) == 53 * 5 * 2 + 3
    assert len({str(a) for a in ALL_ACTIONS}) == len(ALL_ACTIONS)
    for action in ALL_ACTIONS:
        assert Action.parse(str(action)) == action
        assert Action.parse(str(action)) is action


def test_every_action_repr_is_runnable() -> None:
    for action in ALL_ACTIONS:
        assert eval(repr(action), {"Action": Action}) is action


def test_action_fields() -> None:
    a = Action.parse("8h=s!")
    assert a.kind is Kind.PLAY
    assert a.card is Card.parse("8h")
    assert a.suit is Suit.SPADES
    assert a.announce is True
    assert a.without_announce() is Action.parse("8h=s")
    plain = Action.parse("7h")
    assert (plain.suit, plain.announce) == (None, False)
    assert Action.parse("draw").kind is Kind.DRAW and Action.parse("draw").card is None
    assert Action.parse("pass") is PASS
    assert Action.parse("take") is TAKE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8H=♠!", "8h=s!"),
        ("8h=S", "8h=s"),
        ("10♥", "Th"),
        ("10h=♣", "Th=c"),
        ("qS!", "Qs!"),
        ("DRAW", "draw"),
        ("Pass", "pass"),
        (" take ", "take"),
        ("x=H", "X=h"),
    ],
)
def test_action_case_and_symbols_are_forgiven(text: str, expected: str) -> None:
    assert str(Action.parse(text)) == expected


def test_action_is_immutable() -> None:
    action = Action.parse("7h")
    with pytest.raises(AttributeError):
        action.announce = True


@pytest.mark.parametrize("text", ["8h=", "8h=z", "dra", "", "=s!", "!", "8h=s=s", "7h!!", "drawh",
                                  "1h", "7h+", "+7h", "7h++7s", "7h+Zz", "=z", "7h+=s"])
def test_malformed_action_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    message = str(info.value)
    # It lists what an action may be.
    assert "draw, pass, take" in message, message
    assert "8h=s" in message, message
    if text:
        assert repr(text) in message, message


# --------------------------------------------------------------------------- properties


@given(st.text(max_size=12))
@example("8h=")
@example("X=")
@example("🃏!")
@example("\x00")
@example("ß!")
def test_parse_any_text_gives_a_stable_action_or_notation_error(text: str) -> None:
    try:
        action = Action.parse(text)
    except NotationError:
        return
    assert isinstance(action, Action)
    assert Action.parse(str(action)) is action


@given(st.text(alphabet="0123456789aAtTjJqQkKxXcdhsCDHS♣♦♥♠=!  drawpsk", max_size=8))
def test_parse_near_miss_text_gives_a_stable_action_or_notation_error(text: str) -> None:
    try:
        action = Action.parse(text)
    except NotationError:
        return
    assert Action.parse(str(action)) is action


@given(st.text(max_size=6))
def test_card_parse_any_text_gives_a_card_or_notation_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except NotationError:
        return
    assert Card.parse(str(card)) is card


@given(
    st.sampled_from(CARDS[:52]),
    st.data(),
    st.sampled_from([None, *Suit]),
    st.booleans(),
)
def test_any_spelling_of_an_action_reads_back_canonically(
    card: Card, data: st.DataObject, named: Suit | None, announce: bool
) -> None:
    assert card.suit is not None
    rank_text = data.draw(st.sampled_from(rank_forms(card.rank)))
    suit_text = data.draw(st.sampled_from(SUIT_FORMS[card.suit]))
    text = rank_text + suit_text
    if named is not None:
        text += "=" + data.draw(st.sampled_from(SUIT_FORMS[named]))
    if announce:
        text += "!"
    assert Action.parse(text) is Action.play(card, named, announce)


# --------------------------------------------------------------------------- new notation


@pytest.mark.parametrize(("text", "canonical"), [
    ("7h+7s", "7h+7s"),
    ("7s+7c+7h", "7c+7s+7h"),  # the cards under the top in card order, the top last
    ("7h+7c+7s", "7c+7h+7s"),
    ("7H + 7♠", "7h+7s"),
    ("Ah+As=d", "Ah+As=d"),
    ("as+ah=♦!", "As+Ah=d!"),
    ("7h+7h+7s", "7h+7h+7s"),  # a second copy from another deck is repeated
    ("7h+7s!", "7h+7s!"),
])
def test_multi_card_plays_have_one_canonical_text(text: str, canonical: str) -> None:
    """The New notation: ``7h+7s``, the last card written on top; a named suit and a call are
    written once, at the end; the text round-trips and the value is interned."""
    action = Action.parse(text)
    assert str(action) == canonical
    assert Action.parse(canonical) is action
    assert action.card == action.cards[-1] == Card.parse(canonical.split("+")[-1][:2])
    assert pickle.loads(pickle.dumps(action)) is action
    assert eval(repr(action)) is action  # the repr is runnable code


def test_the_top_card_is_the_one_written_last() -> None:
    """``7c+7h+7s`` is one action whatever order the cards were laid in, but the top card
    differs from ``7c+7s+7h``."""
    assert Action.parse("7h+7c+7s") is Action.parse("7c+7h+7s")
    assert Action.parse("7c+7s+7h") is not Action.parse("7c+7h+7s")
    assert [str(c) for c in Action.parse("7s+7c+7h").cards] == ["7c", "7s", "7h"]
    assert Action.play_many([Card.parse("7s"), Card.parse("7c"), Card.parse("7h")]) is (
        Action.parse("7c+7s+7h"))
    assert Action.play_many([Card.parse("7h")]) is Action.play(Card.parse("7h"))
    assert Action.parse("7h+7s").pretty() == "7♥ 7♠"
    assert Action.parse("Ah+As=d!").without_announce() is Action.parse("Ah+As=d")


@pytest.mark.parametrize("suit", "cdhs")
def test_naming_a_suit_without_playing(suit: str) -> None:
    """TS3, UC3: ``=s`` names a suit without playing a card."""
    action = Action.parse(f"={suit}")
    assert action.kind is Kind.NAME and action.card is None and action.cards == ()
    assert action.suit is Suit.parse(suit) and str(action) == f"={suit}"
    assert Action.parse(f"={suit.upper()}") is action is Action.name(Suit.parse(suit))
    assert action.pretty() == "→ " + Suit.parse(suit).symbol
