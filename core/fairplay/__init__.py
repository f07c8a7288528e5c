"""D19 fair play: solver-like choices and rating farms, as pure decisions.

- `signals`: what one tournament says about a player's choices and answer times (sums);
- `record`: the bounded value kept per player, its verdict and the operators' decisions;
- `verdict`: the statistics and thresholds that flag;
- `farming`: refused gains of walk-overs, and the farm pattern;
- `placed.on_place`: the one call the service makes when a player's place is fixed;
- `players` and `simulation`: the simulation that chose the thresholds
  (`wordle-tournament fairplay simulate`).
"""
