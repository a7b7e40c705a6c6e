package io.fleetscope.streams.jobs;

import io.fleetscope.avro.JobImpact;
import java.util.List;
import java.util.Locale;

/**
 * The jobs of an incident in one line for the page: the largest first, then "+N more", e.g.
 * {@code job llama-70b-run3, 1,024 GPUs, last checkpoint 47 min ago: about 800 GPU-hours at risk (+1 more)}.
 */
public final class JobImpactLine {
  private JobImpactLine() {}

  /** The line, or null when the incident touches no job. {@code jobs} must be in {@link JobImpacts#LARGEST_FIRST} order. */
  public static String of(List<JobImpact> jobs) {
    if (jobs == null || jobs.isEmpty()) {
      return null;
    }
    JobImpact j = jobs.get(0);
    StringBuilder b = new StringBuilder("job ").append(j.getJob()).append(", ")
        .append(String.format(Locale.US, "%,d", j.getJobGpus())).append(j.getJobGpus() == 1 ? " GPU, " : " GPUs, ");
    if (j.getLastCheckpointTs() == null) {
      b.append("no checkpoint yet");
    } else {
      b.append("last checkpoint ").append(age(j.getCheckpointAgeS())).append(": ").append(gpuHours(j.getGpuHoursAtRisk()))
          .append(" at risk");
    }
    if (jobs.size() > 1) {
      b.append(" (+").append(jobs.size() - 1).append(" more)");
    }
    return b.toString();
  }

  /** "40 s ago", "47 min ago", "3 h 5 min ago". */
  static String age(long seconds) {
    if (seconds < 60) {
      return seconds + " s ago";
    }
    long min = seconds / 60;
    if (min < 120) {
      return min + " min ago";
    }
    return min / 60 + " h " + min % 60 + " min ago";
  }

  /** "about 800 GPU-hours" (two significant digits from 100 up), "about 47 GPU-hours", "less than 1 GPU-hour". */
  static String gpuHours(double h) {
    if (h < 0.5) {
      return "less than 1 GPU-hour";
    }
    long rounded = Math.round(h);
    if (rounded >= 100) {
      double unit = Math.pow(10, Math.floor(Math.log10(rounded)) - 1);
      rounded = Math.round(Math.round(rounded / unit) * unit);
    }
    return "about " + String.format(Locale.US, "%,d", rounded) + (rounded == 1 ? " GPU-hour" : " GPU-hours");
  }
}
