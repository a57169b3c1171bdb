"""One host module per game (found by plateau.registry): its generator slot `script(seed,
form)`, the events that make its plays (PLAYS, OUTCOME) and its pace under the chaos harness
(CHAOS_SPEED)."""
