package io.fleetscope.agent.collectors.pdu;

/**
 * Identity of one polled PDU as the records carry it.
 *
 * @param device facility device id (the record key), e.g. {@code pdu-r12-a}
 * @param rack rack the PDU feeds, from the site file; may be null
 */
public record PduTarget(String device, String rack) {}
