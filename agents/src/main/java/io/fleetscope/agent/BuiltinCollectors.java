package io.fleetscope.agent;

import io.fleetscope.agent.collectors.ckpt.CkptCollector;
import io.fleetscope.agent.collectors.ckpt.CkptConfig;
import io.fleetscope.agent.collectors.coolant.CoolantCollector;
import io.fleetscope.agent.collectors.coolant.CoolantConfig;
import io.fleetscope.agent.collectors.fabric.FabricConfigCollector;
import io.fleetscope.agent.collectors.gpu.DcgmExporterCollector;
import io.fleetscope.agent.collectors.gpu.DcgmiDmonCollector;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiCsvCollector;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiXmlCollector;
import io.fleetscope.agent.collectors.ib.IbSysfsCollector;
import io.fleetscope.agent.collectors.ib.IbstatCollector;
import io.fleetscope.agent.collectors.ib.PerfqueryCollector;
import io.fleetscope.agent.collectors.inventory.InventoryCollector;
import io.fleetscope.agent.collectors.jobs.JobsCollector;
import io.fleetscope.agent.collectors.nvlink.NvidiaSmiNvlinkCollector;
import io.fleetscope.agent.collectors.pdu.PduCollector;
import io.fleetscope.agent.collectors.pdu.PduConfig;
import io.fleetscope.agent.collectors.storage.LustreCollector;
import io.fleetscope.agent.collectors.storage.NfsCollector;
import io.fleetscope.agent.collectors.storage.NvmeCollector;
import io.fleetscope.agent.collectors.xid.XidCollector;
import io.fleetscope.agent.core.CollectorRegistry;

/**
 * Every collector the agent ships, one registration line each:
 * {@code register(name, enabledByDefault, configClass, factory, summary)}. See agents/REGISTRY.md.
 */
public final class BuiltinCollectors {
  private BuiltinCollectors() {}

  public static CollectorRegistry registry() {
    CollectorRegistry r = new CollectorRegistry();
    // node collectors (agent core)
    r.register("nvidia_smi", true, NvidiaSmiCsvCollector.Config.class, NvidiaSmiCsvCollector::new, "GPU samples from nvidia-smi --query-gpu CSV");
    r.register("nvidia_smi_xml", false, NvidiaSmiXmlCollector.Config.class, NvidiaSmiXmlCollector::new, "GPU samples from nvidia-smi -q -x");
    r.register("dcgm_exporter", false, DcgmExporterCollector.Config.class, DcgmExporterCollector::new, "GPU samples, NVLink samples and XID field changes from dcgm-exporter /metrics");
    r.register("dcgmi", false, DcgmiDmonCollector.Config.class, DcgmiDmonCollector::new, "GPU samples from dcgmi dmon");
    r.register("xid", true, XidCollector.Config.class, XidCollector::new, "XID events from the kernel log (file or command)");
    r.register("ib", true, IbSysfsCollector.Config.class, IbSysfsCollector::new, "InfiniBand/RoCE port counters from sysfs, PFC pause from ethtool -S");
    r.register("ibstat", false, IbstatCollector.Config.class, IbstatCollector::new, "InfiniBand port state and rate from ibstat");
    r.register("perfquery", false, PerfqueryCollector.Config.class, PerfqueryCollector::new, "InfiniBand extended port counters from perfquery -x");
    r.register("inventory", true, InventoryCollector.Config.class, InventoryCollector::new, "the node's GPUs and HCAs to fleet.inventory.v1, on change");
    r.register("jobs", false, JobsCollector.Config.class, JobsCollector::new, "Slurm job or Kubernetes pod -> GPU allocations to fleet.jobs.v1, on change");
    // storage tiers (fleet.storage.v1)
    r.register("nvme", false, NvmeCollector.Config.class, NvmeCollector::new, "local NVMe health (media errors, percentage used, temperature, critical warning) from nvme smart-log -o json");
    r.register("lustre", false, LustreCollector.Config.class, LustreCollector::new, "Lustre client bytes, calls and call time from llite stats (proc files or lctl get_param)");
    r.register("nfs", false, NfsCollector.Config.class, NfsCollector::new, "NFS client bytes, WRITE/READ RPCs, RTT and execute time from /proc/self/mountstats");
    r.register("fabric", true, FabricConfigCollector.Config.class, FabricConfigCollector::new, "RoCE ports' PFC, trust, ECN, DCQCN and MTU to fleet.fabric.config.v1, on change");
    r.register("nvlink", false, NvidiaSmiNvlinkCollector.Config.class, NvidiaSmiNvlinkCollector::new, "NVLink link state, error and throughput counters from nvidia-smi nvlink -s/-e/-gt d");
    // facility collectors
    r.register("pdu", false, PduConfig.class, PduCollector::new, "rack PDU readings over SNMP v2c/v3 (Raritan, APC, ServerTech maps) and Redfish PowerDistribution");
    r.register("coolant", false, CoolantConfig.class, CoolantCollector::new, "CDU loop readings over Redfish ThermalEquipment and Modbus TCP register maps");
    r.register("ckpt", false, CkptConfig.class, CkptCollector::new, "checkpoint start/finish events posted by training jobs to 127.0.0.1");
    return r;
  }
}
