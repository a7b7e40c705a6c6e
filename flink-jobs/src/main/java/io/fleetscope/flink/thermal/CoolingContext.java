package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * What the facility says about the cooling of one GPU's rack at one moment: the latest reading of
 * its CDU loop and its rack power. Any field may be null when unknown or too old.
 *
 * @param loop CDU loop id
 * @param supplyTempC coolant supply temperature
 * @param supplyMaxC the loop's maximum supply temperature
 * @param flowLpm coolant flow
 * @param flowMinLpm the loop's minimum flow
 * @param rackKw rack power from its PDUs
 * @param rackCapacityKw the rack's cooling capacity
 */
public record CoolingContext(
    String loop,
    Double supplyTempC,
    Double supplyMaxC,
    Double flowLpm,
    Double flowMinLpm,
    Double rackKw,
    Double rackCapacityKw)
    implements Serializable {

  public static CoolingContext none() {
    return new CoolingContext(null, null, null, null, null, null, null);
  }
}
