"""R18 on the race's own surface: `/race move` and `/race step` take a `leave` option, and a button
drives over a face-down junk tile without picking it up, only where such a tile lies that way."""

from __future__ import annotations

from typing import Any

from bot.games import unit_for
from bot.games.races.commands import RACE_COMMANDS
from bot.games.unit import Ask
from tests.races.conftest import FAR, position


def _moving(points: int, **rest: Any) -> Any:
    return position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], phase="move", points=points, **rest)


def _build(command: str, game: Any, **values: Any) -> str:
    cmd = RACE_COMMANDS.command(command)
    assert cmd.play is not None
    checked = {o.name: o.check(values.get(o.name)) for o in cmd.options}
    legal = game.legal_actions()
    return cmd.play(Ask(game=game, seat=0, values=checked, legal_of=lambda: legal))


def test_r18_step_and_move_commands_say_leave_only_when_asked() -> None:
    """R18: the option of the move, not a question at each tile; without it the kart takes the tile."""
    g = _moving(3, board={"K3": "junk"})
    assert _build("step", g, way="K3") == "step K3"
    assert _build("step", g, way="K3", leave=True) == "step K3 leave"
    assert _build("step", g, way="straight", leave=True) == "step straight leave"
    two = _moving(2, board={"K3": "junk"})
    assert _build("move", two, to="K3 L2", leave=True) == "move K3 L2 leave"
    assert _build("move", two, to="L2") in {"move K3 L2", "move K4 L3", "move K4 L2"}


def test_r18_a_leave_button_only_where_a_tile_lies_that_way() -> None:
    """R18: 'Straight, leave the tile' is offered for the step onto the tile, and it is a legal action."""
    unit = unit_for("races")
    g = _moving(3, board={"K3": "junk"})
    buttons = {b.action: b.label for b in unit.buttons(g, 0)}
    leaving = [a for a in buttons if a.endswith(" leave")]
    assert leaving, buttons
    for action in leaving:
        g2 = _moving(3, board={"K3": "junk"})
        g2.apply(action)
        assert g2.karts[0].tile_count == 0 and g2.board, "the tile stays on the board face down"
    bare = _moving(3)
    assert not [a for a in (b.action for b in unit.buttons(bare, 0)) if a.endswith(" leave")]
    for action in buttons:  # every button plays: apply accepts it on the same position
        _moving(3, board={"K3": "junk"}).apply(action)


def test_r18_destinations_stand_for_the_plain_move() -> None:
    """R18: a whole move's button plays the move that takes the tiles; the leave variant has its own word."""
    unit = unit_for("races")
    g = _moving(2, board={"K3": "junk"})
    moves = [b.action for b in unit.buttons(g, 0) if b.action.startswith("move")]
    assert moves and not any(m.endswith(" leave") for m in moves)


def test_r18_the_terminal_list_names_the_leave_step_apart() -> None:
    """R18: the terminal's short list shows `step straight leave` beside `step straight`, each once."""
    from bot.games.races.table import short_list

    g = _moving(3, board={"K3": "junk"})
    listed = [text for text, _ in short_list(g)]
    assert len(listed) == len(set(listed)), listed
    leaving = [t for t in listed if t.startswith("step") and t.endswith(" leave")]
    assert leaving and all(t.removesuffix(" leave") in listed for t in leaving)
    for text in leaving:
        _moving(3, board={"K3": "junk"}).apply(text)
