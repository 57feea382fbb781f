"""Weather (3.3) and Airpower determination (3.4)."""

from wargym.attu.board import roll
from wargym.attu.events import AIRPOWER, P_AIRPOWER, P_WEATHER, WEATHER
from wargym.attu.state import OPT_AIR_MOD
from wargym.events import emit
from wargym.jit import njit


@njit(cache=True)
def roll_weather(T, S, g):
    """3.3: the new weather from the previous turn's line (turn 1: the Fog line, 12.2)."""
    S.weather[g] = T.weather_next[S.weather[g], roll(S, g, P_WEATHER)]
    emit(S, g, WEATHER, S.weather[g])


@njit(cache=True)
def roll_airpower(T, S, g):
    """3.4: each side's factors this turn; weather modifier and the scenario's (15.x)."""
    for side in range(2):
        r = roll(S, g, P_AIRPOWER) + T.air_weather[S.weather[g]] + T.opts[OPT_AIR_MOD]
        r = min(max(r, 1), 10)
        S.airpower[g, side] = T.air_table[r, side]
        emit(S, g, AIRPOWER, side, S.airpower[g, side])
