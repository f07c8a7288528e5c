"""The queue at full size: players join at the rate N players would, every language at its share,
ratings as the population's, through the real app on the in-memory store with index lag.

The queue is where players meet players of other tournaments, so its load depends on how many
queue at once: how fast lobbies fill, how many lobbies a read finds, how often joiners race for
the same lobby and merge (D15). So it is not sampled and scaled like a tournament but run at the
arrival rate of the full N for a short window, its keys (the `fill` shards of each language and
band, the lobbies' `due` shards) as they would be. Each joiner polls the queue once a second until
its tournament starts, and is then done here (its tournament is the sample's business).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field
from functools import partial

from api.scale.players import RTT_MS, Player
from api.scale.population import Population
from api.scale.world import World
from api.service.sweep import sweep_lobbies
from api.storage.layout import Layout

INDEX_LAG_MS = 250  # how far the fake's indexes lag the table (DynamoDB: usually under a second)
WARM_MS = 1_500  # the first seconds fill the queue; the measurement starts after them
QUEUE_SAMPLE_MS = 50  # how often the window counts the players waiting (Little's law)


@dataclass
class QueueResult:
    world: World
    joins_per_s: float  # every language together
    window_ms: tuple[int, int]  # the measured window
    joined: int = 0  # in the window
    waits_ms: list[int] = field(default_factory=list)  # join → seated, joiners of the window
    unseated: int = 0  # joined in the window, still waiting at its end
    queued: list[int] = field(default_factory=list)  # players waiting, sampled in the window

    @property
    def seconds(self) -> float:
        return (self.window_ms[1] - self.window_ms[0]) / 1000

    @property
    def wait_ms(self) -> float:
        """The mean wait from join to seat, by Little's law: the players waiting at once
        (sampled through the window) over the arrival rate. Unlike the waits of the window's
        joiners who were seated by its end, it counts those still waiting at its end, which a
        window not much longer than the wait would leave out."""
        if self.queued and self.joined:
            return statistics.fmean(self.queued) / (self.joined / self.seconds) * 1000
        return statistics.fmean(self.waits_ms) if self.waits_ms else 0.0


MIN_WINDOW_S = 1.0  # a key's load is a rate per second: at least one whole second of it


def window_ms(joins_per_s: float, budget: int) -> int:
    """How long to measure so that about `budget` players join (1 s to 5 minutes). A second
    at least, whatever the rate: beyond about 4,000 joins a second (4 million players) the
    second holds more than the budget, and each join costs the same wherever it falls."""
    return int(1000 * min(300.0, max(MIN_WINDOW_S, budget / max(joins_per_s, 1e-9))))


def run_queue(
    layout: Layout,
    population: Population,
    joins_per_s: float,
    seed: int,
    budget: int = 4_000,
    creations_per_minute: int = 600,
) -> QueueResult:
    world = World(
        layout,
        seed,
        index_lag_ms=INDEX_LAG_MS,
        bucket_ms=1_000,
        creations_per_minute=creations_per_minute,
    )
    rng = random.Random(seed)
    length = window_ms(joins_per_s, budget)
    start = world.now + WARM_MS
    end = start + length
    result = QueueResult(world, joins_per_s, (start, end))
    joined_at: dict[str, int] = {}
    waiting: set[str] = set()  # every joiner not seated yet, the warm-up's too
    counter = [0]

    def arrive(language: str, rate: float) -> None:
        now = world.now
        if now < end:
            world.at(now + int(rng.expovariate(rate) * 1000) + 1, lambda: arrive(language, rate))
        counter[0] += 1
        n = counter[0]
        address = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
        rating = population.rating(rng)
        player_id, token = world.new_player(rating)
        p = Player(world, player_id, token, rating, random.Random(n), address, language)
        p.on_seated = seated
        waiting.add(p.id)
        if start <= now < end:
            joined_at[p.id] = now
            result.joined += 1
        p.join_queue()

    def seated(p: Player) -> None:
        p.stopped = True  # its tournament is played in the sample, not here
        waiting.discard(p.id)
        if p.id in joined_at:
            result.waits_ms.append(world.now - joined_at.pop(p.id))

    for language, share in population.languages.items():
        rate = joins_per_s * share
        if rate > 0:
            world.at(
                world.now + int(rng.expovariate(rate) * 1000),
                partial(arrive, language, rate),
            )

    def swept() -> None:  # the lobbies' part of the once-a-minute sweep, once in the window
        world.background(
            "sweep", lambda: sweep_lobbies(world.ctx, world.service.queue.lobbies, world.now, 500)
        )

    def measure(before: str, after: str) -> None:
        """Requests of the window only: the phase before it is put aside, then after it."""
        if before in world.phases:
            world.phases[after] = world.phases.pop(before)

    def sample_queue() -> None:
        result.queued.append(len(waiting))
        if world.now + QUEUE_SAMPLE_MS < end:
            world.at(world.now + QUEUE_SAMPLE_MS, sample_queue)

    world.at(start, sample_queue)
    world.at(start, lambda: measure("queue", "queue:warm"))
    world.at(start + length // 2, swept)
    world.at(end, lambda: measure("queue", "queue:window"))
    world.run(until=end + RTT_MS)
    measure("queue:window", "queue")
    result.unseated = len(joined_at)
    return result
