/**
 * The contract between the analytics that write {@code fleet.anomalies.v1} and the correlator that
 * reads it and writes {@code fleet.alerts.v1}: how a label set is fingerprinted, the status values,
 * the label and annotation names both sides read, and where the runbook of an alert name is.
 * Written once here so that a producer and a consumer cannot drift apart.
 */
package io.fleetscope.schemas.contract;
