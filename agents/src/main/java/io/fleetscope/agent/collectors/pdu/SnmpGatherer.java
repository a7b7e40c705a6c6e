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
 * USM) and returns the variables as an {@link SnmpWalk}. Runs on a {@link Session} that targets
 * with the same credentials share (one UDP socket and listener thread per session, not per PDU).
 */
public final class SnmpGatherer {

  /**
   * One snmp4j session with its own USM (no process-wide security state). Targets share one when
   * {@link #key} is equal: all v2c targets, and v3 targets with identical user and pass phrases.
   */
  public static final class Session implements Closeable {
    final Snmp snmp;
    final USM usm;

    Session(boolean v3) throws IOException {
      MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
      dispatcher.addMessageProcessingModel(new MPv2c());
      USM u = null;
      if (v3) {
        SecurityProtocols protocols = SecurityProtocols.getInstance();
        protocols.addDefaultProtocols();
        // snmp4j 3.x leaves the older (still widely deployed on PDUs) MD5, SHA-1 and DES out of its defaults
        protocols.addAuthenticationProtocol(new AuthMD5());
        protocols.addAuthenticationProtocol(new AuthSHA());
        protocols.addPrivacyProtocol(new PrivDES());
        protocols.addPrivacyProtocol(new PrivAES128());
        protocols.addPrivacyProtocol(new PrivAES192());
        protocols.addPrivacyProtocol(new PrivAES256());
        u = new USM(protocols, new OctetString(MPv3.createLocalEngineID()), 0);
        dispatcher.addMessageProcessingModel(new MPv3(u));
      }
      this.usm = u;
      this.snmp = new Snmp(dispatcher, new DefaultUdpTransportMapping());
      snmp.listen();
    }

    /** Targets with equal keys can share a session. */
    public static String key(PduConfig.SnmpTarget t) {
      if (!"v3".equals(t.version)) {
        return "v2c";
      }
      return String.join("\u0000", "v3", t.user, String.valueOf(t.authProtocol), String.valueOf(t.authPassword),
          String.valueOf(t.privProtocol), String.valueOf(t.privPassword));
    }

    public static Session open(PduConfig.SnmpTarget t) throws IOException {
      return new Session("v3".equals(t.version));
    }

    @Override
    public void close() throws IOException {
      snmp.close();
    }
  }

  private final PduConfig.SnmpTarget cfg;
  private final Snmp snmp;
  private final Target<Address> target;

  /** A gatherer for one target on a session opened for its {@link Session#key}. */
  public SnmpGatherer(PduConfig.SnmpTarget cfg, Session session) throws IOException, ConfigException {
    this.cfg = cfg;
    this.snmp = session.snmp;
    Address address = GenericAddress.parse("udp:" + cfg.host + "/" + cfg.port);
    if (address == null) {
      address = new UdpAddress(java.net.InetAddress.getByName(cfg.host), cfg.port);
    }
    if ("v3".equals(cfg.version)) {
      OID auth = SnmpSecurity.authProtocol("auth_protocol", cfg.authProtocol);
      OID priv = SnmpSecurity.privProtocol("priv_protocol", cfg.privProtocol);
      session.usm.addUser(new OctetString(cfg.user), new UsmUser(
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

}
