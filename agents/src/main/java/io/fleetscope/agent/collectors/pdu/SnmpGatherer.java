package io.fleetscope.agent.collectors.pdu;

import io.fleetscope.agent.config.ConfigException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snmp4j.CommunityTarget;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.security.AuthMD5;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.PrivAES192;
import org.snmp4j.security.PrivAES256;
import org.snmp4j.security.PrivDES;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.GenericAddress;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;
import org.snmp4j.util.DefaultPDUFactory;
import org.snmp4j.util.TreeEvent;
import org.snmp4j.util.TreeUtils;

/**
 * Gathering only: walks the columns of an {@link OidMap} on one PDU with GETBULK (SNMP v2c or v3
 * USM) and returns the variables as an {@link SnmpWalk}. One instance per target, with its own
 * snmp4j session and USM (no process-wide security state).
 */
public final class SnmpGatherer implements Closeable {

  private final PduConfig.SnmpTarget cfg;
  private final Snmp snmp;
  private final Target<Address> target;

  public SnmpGatherer(PduConfig.SnmpTarget cfg) throws IOException, ConfigException {
    this.cfg = cfg;
    MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
    dispatcher.addMessageProcessingModel(new MPv2c());
    USM usm = null;
    if ("v3".equals(cfg.version)) {
      SecurityProtocols protocols = SecurityProtocols.getInstance();
      protocols.addDefaultProtocols();
      // snmp4j 3.x leaves the older (still widely deployed on PDUs) MD5, SHA-1 and DES out of its defaults
      protocols.addAuthenticationProtocol(new AuthMD5());
      protocols.addAuthenticationProtocol(new AuthSHA());
      protocols.addPrivacyProtocol(new PrivDES());
      protocols.addPrivacyProtocol(new PrivAES128());
      protocols.addPrivacyProtocol(new PrivAES192());
      protocols.addPrivacyProtocol(new PrivAES256());
      usm = new USM(protocols, new OctetString(MPv3.createLocalEngineID()), 0);
      dispatcher.addMessageProcessingModel(new MPv3(usm));
    }
    this.snmp = new Snmp(dispatcher, new DefaultUdpTransportMapping());
    Address address = GenericAddress.parse("udp:" + cfg.host + "/" + cfg.port);
    if (address == null) {
      address = new UdpAddress(java.net.InetAddress.getByName(cfg.host), cfg.port);
    }
    if (usm != null) {
      OID auth = SnmpSecurity.authProtocol("auth_protocol", cfg.authProtocol);
      OID priv = SnmpSecurity.privProtocol("priv_protocol", cfg.privProtocol);
      usm.addUser(new OctetString(cfg.user), new UsmUser(
          new OctetString(cfg.user),
          auth, auth == null ? null : new OctetString(cfg.authPassword),
          priv, priv == null ? null : new OctetString(cfg.privPassword)));
      int level = auth == null ? SecurityLevel.NOAUTH_NOPRIV : priv == null ? SecurityLevel.AUTH_NOPRIV : SecurityLevel.AUTH_PRIV;
      UserTarget<Address> ut = new UserTarget<>(address, new OctetString(cfg.user), new byte[0], level);
      ut.setVersion(SnmpConstants.version3);
      this.target = ut;
    } else {
      CommunityTarget<Address> ct = new CommunityTarget<>(address, new OctetString(cfg.community));
      ct.setVersion(SnmpConstants.version2c);
      this.target = ct;
    }
    target.setTimeout(cfg.requestTimeout.toMillis());
    target.setRetries(cfg.retries);
    snmp.listen();
  }

  /**
   * Walks every column. A column the agent does not have yields nothing; a timeout or an SNMP
   * error fails the whole walk (the collector reports the target as failed).
   */
  public SnmpWalk walk(Iterable<String> columns) throws IOException {
    TreeUtils tree = new TreeUtils(snmp, new DefaultPDUFactory(PDU.GETBULK));
    tree.setMaxRepetitions(cfg.maxRepetitions);
    Map<String, SnmpValue> values = new LinkedHashMap<>();
    for (String column : columns) {
      List<TreeEvent> events = tree.getSubtree(target, new OID(column));
      for (TreeEvent ev : events) {
        if (ev.isError()) {
          throw new IOException("SNMP walk of " + column + " on " + cfg.host + ":" + cfg.port + " failed: " + ev.getErrorMessage());
        }
        VariableBinding[] vbs = ev.getVariableBindings();
        if (vbs == null) {
          continue;
        }
        for (VariableBinding vb : vbs) {
          if (vb == null || vb.isException()) {
            continue;
          }
          values.put(vb.getOid().toDottedString(), toValue(vb.getVariable()));
        }
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new IOException("SNMP walk on " + cfg.host + " interrupted at its deadline");
      }
    }
    return new SnmpWalk(values);
  }

  static SnmpValue toValue(Variable v) {
    int syntax = v.getSyntax();
    if (v instanceof OctetString os) {
      return new SnmpValue(SnmpValue.OCTET_STRING, new String(os.getValue(), StandardCharsets.ISO_8859_1));
    }
    if (syntax == SnmpValue.COUNTER64) {
      return new SnmpValue(syntax, Long.toUnsignedString(v.toLong()));
    }
    if (syntax == SnmpValue.INTEGER || syntax == SnmpValue.GAUGE32 || syntax == SnmpValue.COUNTER32
        || syntax == SnmpValue.TIMETICKS) {
      return new SnmpValue(syntax, Long.toString(v.toLong()));
    }
    return new SnmpValue(syntax, v.toString());
  }

  @Override
  public void close() throws IOException {
    snmp.close();
  }
}
