package io.fleetscope.agent.collectors.pdu;

import io.fleetscope.agent.config.ConfigException;
import java.util.Locale;
import org.snmp4j.security.AuthHMAC128SHA224;
import org.snmp4j.security.AuthHMAC192SHA256;
import org.snmp4j.security.AuthHMAC256SHA384;
import org.snmp4j.security.AuthHMAC384SHA512;
import org.snmp4j.security.AuthMD5;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.PrivDES;
import org.snmp4j.smi.OID;

/** Names of SNMPv3 USM protocols as written in the config, to snmp4j protocol OIDs. */
final class SnmpSecurity {
  private SnmpSecurity() {}

  /** Null for none. */
  static OID authProtocol(String key, String name) throws ConfigException {
    return switch (name == null ? "" : name.toUpperCase(Locale.ROOT)) {
      case "NONE" -> null;
      case "MD5" -> AuthMD5.ID;
      case "SHA", "SHA1" -> AuthSHA.ID;
      case "SHA224" -> AuthHMAC128SHA224.ID;
      case "SHA256" -> AuthHMAC192SHA256.ID;
      case "SHA384" -> AuthHMAC256SHA384.ID;
      case "SHA512" -> AuthHMAC384SHA512.ID;
      default -> throw new ConfigException(key, "must be one of MD5, SHA, SHA224, SHA256, SHA384, SHA512, none; got '" + name + "'");
    };
  }

  /** Null for none. */
  static OID privProtocol(String key, String name) throws ConfigException {
    return switch (name == null ? "" : name.toUpperCase(Locale.ROOT)) {
      case "NONE" -> null;
      case "DES" -> PrivDES.ID;
      case "AES", "AES128" -> PrivAES128.ID;
      case "AES192" -> PrivAES192.ID;
      case "AES256" -> PrivAES256.ID;
      default -> throw new ConfigException(key, "must be one of DES, AES128, AES192, AES256, none; got '" + name + "'");
    };
  }
}
