package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.loadgen.scenario.FaultPlan;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.topology.SiteTopology;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The fleet simulator's public face. Each {@link #iterator()} / {@link #run()} starts a fresh,
 * deterministic run of the configured scenario: first the site's inventory and job records, then
 * telemetry tick by tick in event-time order, except for the records delayed on purpose.
 */
public final class FleetSimulator implements Iterable<SimRecord> {
  private final SimConfig config;
  private final SiteTopology topology;
  private final FaultPlan plan;

  public FleetSimulator(SimConfig config) {
    if (config.site().nodes() < config.scenario().minNodes()) {
      throw new IllegalArgumentException("scenario " + config.scenario().name() + " needs at least "
          + config.scenario().minNodes() + " nodes, got " + config.site().nodes());
    }
    this.config = config;
    SiteTopology plain = SiteTopology.generate(config.site(), config.seed(), Map.of());
    this.topology = SiteTopology.generate(config.site(), config.seed(),
        FaultPlan.modelOverrides(config.scenario(), plain));
    this.plan = new FaultPlan(config.scenario(), topology, config.startMs(), config.endMs());
  }

  /** A simulation of {@code base} over [from, to). */
  public static Stream<SimRecord> stream(SimConfig base, Instant from, Instant to) {
    return new FleetSimulator(base.withStart(from.toEpochMilli())
        .withDuration(java.time.Duration.between(from, to))).stream();
  }

  public SimConfig config() {
    return config;
  }

  public SiteTopology topology() {
    return topology;
  }

  public FaultPlan plan() {
    return plan;
  }

  /** Ground-truth labels of this run's faults. */
  public List<GroundTruthLabel> labels() {
    return plan.labels();
  }

  /**
   * fleet.inventory.v1 and fleet.jobs.v1 records describing the site at the start of the run; a
   * node whose job does not run at the start has no allocation.
   */
  public List<SimRecord> initialRecords() {
    List<SimRecord> out = new ArrayList<>();
    for (InventoryRecord r : topology.inventory(config.startMs())) {
      out.add(new SimRecord(Topics.INVENTORY, r.getId(), r));
    }
    if (config.site().fabric().equals("roce")) {
      FabricPorts ports = new FabricPorts(config.site().cluster(), config.scenario().site());
      for (io.fleetscope.avro.PortConfig p : ports.all(topology, config.startMs())) {
        out.add(new SimRecord(Topics.FABRIC_CONFIG, FabricPorts.key(p), p));
      }
    }
    if (config.site().fabric().equals("infiniband") && FabricPorts.infinibandConfig(config.scenario().site())) {
      FabricPorts ports = new FabricPorts(config.site().cluster(), config.scenario().site());
      for (io.fleetscope.avro.PortConfig p : ports.allInfiniband(topology, config.startMs())) {
        out.add(new SimRecord(Topics.FABRIC_CONFIG, FabricPorts.key(p), p));
      }
    }
    List<String> jobNames = topology.jobs().stream().map(SiteTopology.Job::name).toList();
    for (SiteTopology.Node n : topology.nodes()) {
      boolean running = JobSchedule.running(plan, jobNames.indexOf(n.job()), config.startMs());
      JobAllocations j = topology.jobAllocation(n, config.startMs(), 0L, running);
      out.add(new SimRecord(Topics.JOBS, j.getNode(), j));
    }
    return out;
  }

  /** A fresh run, advanced one tick at a time (for paced, real-time output). */
  public SimRun run() {
    return new SimRun(config, topology, plan);
  }

  /** Every record of a fresh run: initial records, then all ticks, then the still-delayed ones. */
  @Override
  public Iterator<SimRecord> iterator() {
    SimRun run = run();
    List<SimRecord> initial = initialRecords();
    return new Iterator<>() {
      private Iterator<SimRecord> batch = initial.iterator();

      @Override
      public boolean hasNext() {
        while (!batch.hasNext()) {
          if (run.hasNextTick()) {
            batch = run.advance().iterator();
          } else if (!run.drained()) {
            batch = run.drain().iterator();
          } else {
            return false;
          }
        }
        return true;
      }

      @Override
      public SimRecord next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return batch.next();
      }
    };
  }

  public Stream<SimRecord> stream() {
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED), false);
  }

  /** The same records as ARCHITECTURE's JSON-lines interchange lines. */
  public Stream<JsonLines.Line> lines() {
    return stream().map(SimRecord::toLine);
  }
}
