package io.fleetscope.agent.collectors.jobs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the kubelet's {@code v1.PodResourcesLister/List} reply (protobuf wire format) into the
 * devices each pod holds. Only the fields below are read; every other field (CPU ids, memory,
 * topology, dynamic resources, fields added by later kubelets) is skipped by its wire type, so a
 * newer kubelet's reply still parses.
 *
 * <pre>
 * ListPodResourcesResponse { repeated PodResources pod_resources = 1; }
 * PodResources             { string name = 1; string namespace = 2; repeated ContainerResources containers = 3; }
 * ContainerResources       { string name = 1; repeated ContainerDevices devices = 2; ... }
 * ContainerDevices         { string resource_name = 1; repeated string device_ids = 2; ... }
 * </pre>
 *
 * (k8s.io/kubelet/pkg/apis/podresources/v1/api.proto; field numbers are stable across releases.)
 */
public final class PodResourcesParser {
  private PodResourcesParser() {}

  /** One container's devices of one resource, e.g. {@code nvidia.com/gpu -> [GPU-8a3c..., GPU-17f0...]}. */
  public record Devices(String container, String resourceName, List<String> deviceIds) {}

  /** One pod and the devices its containers hold. */
  public record Pod(String namespace, String name, List<Devices> devices) {}

  public static List<Pod> parseListResponse(byte[] bytes) {
    Reader r = new Reader(bytes, 0, bytes.length, "ListPodResourcesResponse");
    List<Pod> pods = new ArrayList<>();
    while (r.more()) {
      int tag = r.tag();
      if (tag == (1 << 3 | 2)) pods.add(pod(r.message("PodResources")));
      else r.skip(tag);
    }
    return pods;
  }

  private static Pod pod(Reader r) {
    String name = "";
    String namespace = "";
    List<Devices> devices = new ArrayList<>();
    while (r.more()) {
      int tag = r.tag();
      switch (tag) {
        case 1 << 3 | 2 -> name = r.string();
        case 2 << 3 | 2 -> namespace = r.string();
        case 3 << 3 | 2 -> container(r.message("ContainerResources"), devices);
        default -> r.skip(tag);
      }
    }
    return new Pod(namespace, name, devices);
  }

  private static void container(Reader r, List<Devices> out) {
    String name = "";
    List<Reader> deviceMessages = new ArrayList<>();
    while (r.more()) {
      int tag = r.tag();
      switch (tag) {
        case 1 << 3 | 2 -> name = r.string();
        case 2 << 3 | 2 -> deviceMessages.add(r.message("ContainerDevices"));
        default -> r.skip(tag);
      }
    }
    // the container's name may follow its devices on the wire: read the devices once it is known
    for (Reader d : deviceMessages) out.add(devices(d, name));
  }

  private static Devices devices(Reader r, String container) {
    String resource = "";
    List<String> ids = new ArrayList<>();
    while (r.more()) {
      int tag = r.tag();
      switch (tag) {
        case 1 << 3 | 2 -> resource = r.string();
        case 2 << 3 | 2 -> ids.add(r.string());
        default -> r.skip(tag);
      }
    }
    return new Devices(container, resource, ids);
  }

  /** Protobuf wire-format reader over one message's bytes. */
  private static final class Reader {
    private final byte[] b;
    private int pos;
    private final int end;
    private final String what;

    Reader(byte[] b, int pos, int end, String what) {
      this.b = b;
      this.pos = pos;
      this.end = end;
      this.what = what;
    }

    boolean more() {
      return pos < end;
    }

    int tag() {
      long t = varint();
      if (t >>> 3 == 0 || t > Integer.MAX_VALUE) throw bad("invalid field tag " + t);
      return (int) t;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) throw bad("truncated varint");
        byte x = b[pos++];
        v |= (long) (x & 0x7f) << shift;
        if (x >= 0) return v;
      }
      throw bad("varint longer than 10 bytes");
    }

    private int length() {
      long n = varint();
      if (n < 0 || n > end - pos) throw bad("length " + n + " runs past the end (" + (end - pos) + " bytes left)");
      return (int) n;
    }

    String string() {
      int n = length();
      String s = new String(b, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    Reader message(String name) {
      int n = length();
      Reader m = new Reader(b, pos, pos + n, name);
      pos += n;
      return m;
    }

    void skip(int tag) {
      switch (tag & 7) {
        case 0 -> varint();
        case 1 -> advance(8);
        case 2 -> advance(length());
        case 5 -> advance(4);
        default -> throw bad("unsupported wire type " + (tag & 7) + " of field " + (tag >>> 3));
      }
    }

    private void advance(int n) {
      if (n > end - pos) throw bad("field runs past the end");
      pos += n;
    }

    private IllegalArgumentException bad(String why) {
      return new IllegalArgumentException("pod-resources reply is not valid protobuf: " + what + ": " + why + " at byte " + pos);
    }
  }
}
