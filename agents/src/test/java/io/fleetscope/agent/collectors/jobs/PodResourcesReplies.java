package io.fleetscope.agent.collectors.jobs;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import java.util.List;

/**
 * Builds kubelet pod-resources replies with the reference protobuf runtime, from the message
 * definitions of k8s.io/kubelet/pkg/apis/podresources/v1/api.proto (field names, numbers and types as
 * upstream, including the fields the agent skips: cpu_ids, memory, topology). No capture of a real
 * kubelet reply exists in the fixtures; encoding with protobuf itself keeps the test independent of
 * the agent's own decoder.
 */
final class PodResourcesReplies {
  private static final FileDescriptor FILE = build();

  private PodResourcesReplies() {}

  /** A device grant: resource, ids, and the NUMA node the kubelet reports for it. */
  record Grant(String resource, List<String> ids, int numaNode) {}

  /** A container with its device grants and its exclusive CPUs. */
  record Container(String name, List<Grant> grants, List<Long> cpuIds) {}

  record Pod(String namespace, String name, List<Container> containers) {}

  static byte[] listResponse(List<Pod> pods) {
    DynamicMessage.Builder resp = DynamicMessage.newBuilder(type("ListPodResourcesResponse"));
    for (Pod p : pods) {
      DynamicMessage.Builder pod = DynamicMessage.newBuilder(type("PodResources"));
      set(pod, "namespace", p.namespace());
      set(pod, "name", p.name());
      for (Container c : p.containers()) {
        DynamicMessage.Builder cont = DynamicMessage.newBuilder(type("ContainerResources"));
        for (Grant g : c.grants()) {
          DynamicMessage.Builder dev = DynamicMessage.newBuilder(type("ContainerDevices"));
          set(dev, "resource_name", g.resource());
          for (String id : g.ids()) add(dev, "device_ids", id);
          DynamicMessage numa = DynamicMessage.newBuilder(type("NUMANode")).setField(field(type("NUMANode"), "ID"), (long) g.numaNode()).build();
          DynamicMessage topo = DynamicMessage.newBuilder(type("TopologyInfo")).addRepeatedField(field(type("TopologyInfo"), "nodes"), numa).build();
          dev.setField(field(dev.getDescriptorForType(), "topology"), topo);
          add(cont, "devices", dev.build());
        }
        for (Long cpu : c.cpuIds()) add(cont, "cpu_ids", cpu);
        DynamicMessage mem = DynamicMessage.newBuilder(type("ContainerMemory"))
            .setField(field(type("ContainerMemory"), "memory_type"), "memory")
            .setField(field(type("ContainerMemory"), "size"), 64L << 30).build();
        add(cont, "memory", mem);
        set(cont, "name", c.name());
        add(pod, "containers", cont.build());
      }
      add(resp, "pod_resources", pod.build());
    }
    return resp.build().toByteArray();
  }

  private static void set(DynamicMessage.Builder b, String f, Object v) {
    b.setField(field(b.getDescriptorForType(), f), v);
  }

  private static void add(DynamicMessage.Builder b, String f, Object v) {
    b.addRepeatedField(field(b.getDescriptorForType(), f), v);
  }

  private static Descriptor type(String name) {
    return FILE.findMessageTypeByName(name);
  }

  private static com.google.protobuf.Descriptors.FieldDescriptor field(Descriptor d, String name) {
    return d.findFieldByName(name);
  }

  private static FieldDescriptorProto.Builder f(String name, int number, Type type, Label label) {
    return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type).setLabel(label);
  }

  private static FieldDescriptorProto.Builder msg(String name, int number, String typeName, Label label) {
    return f(name, number, Type.TYPE_MESSAGE, label).setTypeName(".v1." + typeName);
  }

  private static FileDescriptor build() {
    Label opt = Label.LABEL_OPTIONAL;
    Label rep = Label.LABEL_REPEATED;
    FileDescriptorProto file = FileDescriptorProto.newBuilder()
        .setName("api.proto").setPackage("v1").setSyntax("proto3")
        .addMessageType(DescriptorProto.newBuilder().setName("ListPodResourcesResponse")
            .addField(msg("pod_resources", 1, "PodResources", rep)))
        .addMessageType(DescriptorProto.newBuilder().setName("PodResources")
            .addField(f("name", 1, Type.TYPE_STRING, opt))
            .addField(f("namespace", 2, Type.TYPE_STRING, opt))
            .addField(msg("containers", 3, "ContainerResources", rep)))
        .addMessageType(DescriptorProto.newBuilder().setName("ContainerResources")
            .addField(f("name", 1, Type.TYPE_STRING, opt))
            .addField(msg("devices", 2, "ContainerDevices", rep))
            .addField(f("cpu_ids", 3, Type.TYPE_INT64, rep))
            .addField(msg("memory", 4, "ContainerMemory", rep)))
        .addMessageType(DescriptorProto.newBuilder().setName("ContainerMemory")
            .addField(f("memory_type", 1, Type.TYPE_STRING, opt))
            .addField(f("size", 2, Type.TYPE_UINT64, opt))
            .addField(msg("topology", 3, "TopologyInfo", opt)))
        .addMessageType(DescriptorProto.newBuilder().setName("ContainerDevices")
            .addField(f("resource_name", 1, Type.TYPE_STRING, opt))
            .addField(f("device_ids", 2, Type.TYPE_STRING, rep))
            .addField(msg("topology", 3, "TopologyInfo", opt)))
        .addMessageType(DescriptorProto.newBuilder().setName("TopologyInfo")
            .addField(msg("nodes", 1, "NUMANode", rep)))
        .addMessageType(DescriptorProto.newBuilder().setName("NUMANode")
            .addField(f("ID", 1, Type.TYPE_INT64, opt)))
        .build();
    try {
      return FileDescriptor.buildFrom(file, new FileDescriptor[0]);
    } catch (com.google.protobuf.Descriptors.DescriptorValidationException e) {
      throw new IllegalStateException(e);
    }
  }
}
