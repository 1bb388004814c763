"""Cardoku property tests (hypothesis)."""

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import cardoku as ck

seeds = st.integers(min_value=0, max_value=ck.SEED_LIMIT - 1)


@st.composite
def layouts(draw):
    kind = draw(st.sampled_from(["default", "random"]))
    return ck.default_layout() if kind == "default" else ck.random_layout(draw(seeds))


def _conflict_free(state):
    cards = state.cards_on_board()
    for (r1, c1), a in cards.items():
        for (r2, c2), b in cards.items():
            if (r1, c1) < (r2, c2) and (r1 == r2 or c1 == c2 or ck.box_of(r1, c1) == ck.box_of(r2, c2)):
                assert ck.conflict(a, b) is None, (a, b)


@st.composite
def games(draw, max_steps=60):
    """A (layout, seed, states) walk of random placements, discards and undos."""
    layout = draw(layouts())
    seed = draw(seeds)
    state = ck.new_game(layout, seed)
    walk = [state]
    for _ in range(draw(st.integers(0, max_steps))):
        if state.finished:
            break
        legal = sorted(ck.legal_squares(state))
        action = draw(st.sampled_from(["place", "place", "place", "discard", "undo"]))
        if action == "place" and legal:
            state = ck.place(state, *draw(st.sampled_from(legal)))
        elif action == "undo" and state.history:
            state = ck.undo(state)
        else:
            state = ck.discard(state)
        walk.append(state)
    return layout, seed, walk


@settings(max_examples=60, deadline=None)
@given(games())
def test_undo_restores_the_previous_state_exactly(game):
    _, _, walk = game
    for before, after in itertools.pairwise(walk):
        if len(after.history) == len(before.history) + 1:
            assert ck.undo(after) == before


@settings(max_examples=60, deadline=None)
@given(games())
def test_replay_from_seed_and_moves_gives_same_state_and_score(game):
    layout, seed, walk = game
    final = walk[-1]
    again = ck.replay(layout, seed, final.moves)
    assert again == final
    assert ck.score(again) == ck.score(final)
    data = json.loads(json.dumps(ck.to_dict(final)))
    assert ck.from_dict(data) == final


@settings(max_examples=60, deadline=None)
@given(games())
def test_invariants(game):
    layout, _, walk = game
    for state in walk:
        placed = len(state.cards_on_board())
        assert placed == 9 + state.position - state.discards
        assert state.finished == (state.position == 45)
        assert all(state.card_at(*sq) == card for sq, card in layout.placements)
        _conflict_free(state)
        result = ck.score(state)
        assert result.total == sum(u.points for u in result.units) - 9 * state.discards


@settings(max_examples=100, deadline=None)
@given(seeds)
def test_deal_determinism(seed):
    a = ck.deal(seed)
    assert a == ck.deal(seed)
    assert set(a) == set(ck.DEAL_CARDS) and len(a) == 45
    assert ck.new_game(None, seed).deck == a
    assert ck.parse_deal_code(ck.deal_code(seed)) == seed
    assert ck.parse_deal_code(ck.deal_code(seed).lower()) == seed


@settings(max_examples=30, deadline=None)
@given(layouts(), seeds)
def test_full_greedy_game_ends_and_replays(layout, seed):
    state = ck.new_game(layout, seed)
    while not state.finished:
        legal = ck.legal_squares(state)
        state = ck.place(state, *min(legal)) if legal else ck.discard(state)
    assert state.position == 45 and state.current_card is None
    assert ck.replay(layout, seed, state.moves) == state
    _conflict_free(state)


@settings(max_examples=60, deadline=None)
@given(games(max_steps=20))
def test_legal_squares_agree_with_check_square(game):
    state = game[2][-1]
    legal = ck.legal_squares(state)
    for sq in ck.ALL_SQUARES:
        assert ck.is_legal(state, *sq) == (sq in legal)
    blocking = ck.blocking_cards(state)
    assert blocking == {b for sq in ck.ALL_SQUARES if state.card_at(*sq) is None for b in ck.blockers(state, sq)}
