package io.fleetscope.agent.collectors.gpu;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code nvidia-smi -L}: one {@code GPU N: MODEL (UUID: GPU-...)} line per GPU and, for a GPU
 * in MIG mode, one indented {@code MIG PROFILE Device M: (UUID: MIG-...)} line per MIG device under
 * it. The MIG UUIDs are the ids the Kubernetes device plugin and {@code CUDA_VISIBLE_DEVICES} use
 * for MIG devices.
 */
public final class NvidiaSmiListParser {
  private NvidiaSmiListParser() {}

  private static final Pattern GPU = Pattern.compile("^GPU (\\d+): (.*?) \\(UUID: (GPU-[^)]+)\\)\\s*$");
  private static final Pattern MIG = Pattern.compile("^\\s+MIG (\\S+)\\s+Device\\s+(\\d+): \\(UUID: (MIG-[^)]+)\\)\\s*$");

  /** A MIG device: its profile (e.g. {@code 1g.18gb}), its index on the GPU, its UUID. */
  public record MigDevice(String profile, int device, String uuid) {}

  /** A GPU with its MIG devices (empty when MIG is off). */
  public record ListedGpu(int index, String model, String uuid, List<MigDevice> migDevices) {}

  public static List<ListedGpu> parse(String text) {
    List<ListedGpu> out = new ArrayList<>();
    Integer index = null;
    String model = null;
    String uuid = null;
    List<MigDevice> migs = new ArrayList<>();
    for (String line : text.split("\r?\n")) {
      Matcher g = GPU.matcher(line);
      if (g.matches()) {
        if (index != null) out.add(new ListedGpu(index, model, uuid, List.copyOf(migs)));
        index = Integer.parseInt(g.group(1));
        model = g.group(2).trim();
        uuid = g.group(3);
        migs.clear();
        continue;
      }
      Matcher m = MIG.matcher(line);
      if (m.matches() && index != null) {
        migs.add(new MigDevice(m.group(1), Integer.parseInt(m.group(2)), m.group(3)));
      }
    }
    if (index != null) out.add(new ListedGpu(index, model, uuid, List.copyOf(migs)));
    return out;
  }

  /** Every GPU UUID and MIG device UUID to the index of the GPU it is (or is part of). */
  public static Map<String, Integer> uuidToGpuIndex(List<ListedGpu> gpus) {
    Map<String, Integer> m = new HashMap<>();
    for (ListedGpu g : gpus) {
      m.put(g.uuid(), g.index());
      for (MigDevice d : g.migDevices()) m.put(d.uuid(), g.index());
    }
    return m;
  }
}
