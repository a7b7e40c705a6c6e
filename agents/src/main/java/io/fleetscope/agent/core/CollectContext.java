package io.fleetscope.agent.core;

/**
 * Facts of one collection round.
 *
 * @param ts sample time of this round, UTC epoch milliseconds (put it into every record's {@code ts})
 * @param cluster cluster name from the agent config
 * @param node this node's name (or the facility agent's name)
 */
public record CollectContext(long ts, String cluster, String node) {}
