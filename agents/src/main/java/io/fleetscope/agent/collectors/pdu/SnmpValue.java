package io.fleetscope.agent.collectors.pdu;

/**
 * One SNMP variable as text, independent of the SNMP library.
 *
 * @param type the ASN.1 BER tag as snmpsim's .snmprec files write it (2 Integer32, 4 OCTET STRING,
 *     6 OID, 64 IpAddress, 65 Counter32, 66 Gauge32/Unsigned32, 67 TimeTicks, 70 Counter64)
 * @param text the value: decimal for numbers, the string for OCTET STRING
 */
public record SnmpValue(int type, String text) {

  public static final int INTEGER = 2;
  public static final int OCTET_STRING = 4;
  public static final int OID = 6;
  public static final int IP_ADDRESS = 64;
  public static final int COUNTER32 = 65;
  public static final int GAUGE32 = 66;
  public static final int TIMETICKS = 67;
  public static final int COUNTER64 = 70;

  public boolean isNumeric() {
    return type == INTEGER || type == COUNTER32 || type == GAUGE32 || type == TIMETICKS || type == COUNTER64;
  }

  /** The numeric value, or null when this variable is not a number. */
  public Double asDouble() {
    if (!isNumeric()) {
      return null;
    }
    try {
      return Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
