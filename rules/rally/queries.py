"""Questions about a Schrottplatz Rally state that are not part of the game contract: which car stands
where, what kind of place a name is, the spots of a car park open to this many players, the laps driven.
The rules, the computers, the table and the tests ask them of a :class:`~rules.rally.game.RallyGame`; they
read only what :class:`Race` names of it, so this module never imports the game's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from rules.rally.track import STOP, WAITING

if TYPE_CHECKING:
    from rules.rally.car import Car
    from rules.rally.track import Course, Track

MULTI = (WAITING, STOP)  # places that hold any number of cars


class Race(Protocol):
    """What the questions read of a race: its cars by seat, its track and the course driven on it."""

    cars: list[Car]
    track: Track

    @property
    def n(self) -> int:
        """The number of seats."""

    @property
    def course(self) -> Course:
        """The loop the race drives, in its direction."""


def seat_at(game: Race, place: str) -> int | None:
    """The seat whose car stands on ``place`` (None on a place that holds any number of cars)."""
    if place in MULTI:
        return None
    for seat, car in enumerate(game.cars):
        if car.at == place:
            return seat
    return None


def occupied(game: Race, exclude: int | None = None) -> set[str]:
    """The places a single car fills, ``exclude``'s car left out."""
    return {c.at for s, c in enumerate(game.cars) if s != exclude and c.at not in MULTI}


def row_of(game: Race, place: str) -> int:
    """The row a place lies beside (its position on the loop)."""
    if place == WAITING:
        return game.course.pit_entry
    if place == STOP:
        return game.course.pit_exit
    if place.startswith(WAITING + "."):
        return game.track.pit.spots[int(place.split(".")[1]) - 1][0]
    if "." in place:
        return game.track.area_by_id[place.split(".")[0]].row
    return int(place[:-1])


def is_cell(place: str) -> bool:
    """Whether ``place`` names a cell of a lane ("12b")."""
    return place[-1] in "abc" and place[:-1].isdigit()


def is_spot(place: str) -> bool:
    """Whether ``place`` names a parking spot ("A.2", "pit.1")."""
    return "." in place


def spot_least(game: Race, spot: str) -> int:
    """The least number of players for which a spot is open."""
    area, index = spot.split(".")
    if area == WAITING:
        return game.track.pit.spots[int(index) - 1][1]
    return game.track.area_by_id[area].spots[int(index) - 1]


def spot_kind(game: Race, spot: str) -> str:
    """What a spot's car park offers ("pit" for the pit lane)."""
    area = spot.split(".")[0]
    return "pit" if area == WAITING else game.track.area_by_id[area].kind


def valid_place(game: Race, place: str) -> bool:
    """Whether ``place`` names a place of this track."""
    if place in MULTI:
        return True
    if is_cell(place):
        return game.track.has_cell(int(place[:-1]), place[-1])
    if is_spot(place):
        area, _, index = place.partition(".")
        if not index.isdigit():
            return False
        spots = (game.track.pit.spots if area == WAITING
                 else game.track.area_by_id[area].spots if area in game.track.area_by_id else ())
        return 1 <= int(index) <= len(spots)
    return False


def open_spots(game: Race, area_id: str) -> list[str]:
    """The spots of a car park (or ``pit``) open to this many players (rule text "Parken", S1)."""
    if area_id == WAITING:
        names, least = game.track.pit.spot_names(), [s[1] for s in game.track.pit.spots]
    else:
        a = game.track.area_by_id[area_id]
        names, least = a.spot_names(), list(a.spots)
    return [nm for nm, lo in zip(names, least, strict=True) if lo <= game.n]


def laps_done(game: Race, seat: int) -> int:
    """The laps ``seat``'s car has finished."""
    return max(0, game.cars[seat].progress // game.track.length)


def lap_of(game: Race, seat: int) -> int:
    """The lap being driven: 0 on the grid before the arch, 1 in the first lap, …"""
    return game.cars[seat].progress // game.track.length + 1
