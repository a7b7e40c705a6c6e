package io.fleetscope.loadgen.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/** Draws the pipeline run as a PNG: consumer lag (top) and sample-to-anomaly latency p50/p99 (bottom) over time. */
public final class PlotWriter {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  public static final int WIDTH = 1000;
  public static final int HEIGHT = 640;
  private static final int LEFT = 80;
  private static final int RIGHT = 20;
  private static final int PANEL_H = 250;
  private static final int TOP1 = 40;
  private static final int TOP2 = TOP1 + PANEL_H + 60;

  private PlotWriter() {}

  public static void write(List<PipelineSample> samples, String title, Path png) throws IOException {
    BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, HEIGHT);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(title, LEFT, 22);
    double tMax = samples.isEmpty() ? 1 : Math.max(1, samples.get(samples.size() - 1).tS());
    panel(g, samples, TOP1, tMax, "consumer lag (records, all groups)", List.of(
        new Series("lag", new Color(0x1f77b4), s -> s.totalLag())));
    panel(g, samples, TOP2, tMax, "sample-to-anomaly latency (ms, 10 s window)", List.of(
        new Series("p50", new Color(0x2ca02c), PipelineSample::latencyP50Ms),
        new Series("p99", new Color(0xd62728), PipelineSample::latencyP99Ms)));
    g.dispose();
    java.nio.file.Files.createDirectories(png.toAbsolutePath().getParent());
    if (!ImageIO.write(img, "png", png.toFile())) {
      throw new IOException("no PNG writer available");
    }
  }

  private record Series(String name, Color color, ToDoubleFunction<PipelineSample> value) {}

  private static void panel(Graphics2D g, List<PipelineSample> samples, int top, double tMax, String label,
      List<Series> series) {
    int w = WIDTH - LEFT - RIGHT;
    double yMax = 0;
    for (PipelineSample s : samples) {
      for (Series se : series) {
        double v = se.value().applyAsDouble(s);
        if (!Double.isNaN(v)) {
          yMax = Math.max(yMax, v);
        }
      }
    }
    yMax = niceCeil(yMax);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setColor(Color.BLACK);
    g.drawString(label, LEFT, top - 8);
    g.setColor(new Color(0xdddddd));
    for (int i = 0; i <= 4; i++) {
      int y = top + PANEL_H - i * PANEL_H / 4;
      g.drawLine(LEFT, y, LEFT + w, y);
    }
    g.setColor(Color.BLACK);
    g.drawRect(LEFT, top, w, PANEL_H);
    for (int i = 0; i <= 4; i++) {
      int y = top + PANEL_H - i * PANEL_H / 4;
      g.drawString(String.format(Locale.ROOT, yMax < 10 ? "%.2f" : "%.0f", yMax * i / 4), 8, y + 4);
    }
    for (int i = 0; i <= 5; i++) {
      int x = LEFT + i * w / 5;
      g.drawString(String.format(Locale.ROOT, "%.0fs", tMax * i / 5), x - 10, top + PANEL_H + 16);
    }
    boolean any = samples.stream().anyMatch(x -> series.stream().anyMatch(se -> !Double.isNaN(se.value().applyAsDouble(x))
        && se.value().applyAsDouble(x) > 0));
    if (!any) {
      g.setColor(Color.GRAY);
      g.drawString("no non-zero values in this run", LEFT + w / 2 - 90, top + PANEL_H / 2);
    }
    int legendX = LEFT + w - 120;
    g.setStroke(new BasicStroke(2f));
    for (int si = 0; si < series.size(); si++) {
      Series se = series.get(si);
      g.setColor(se.color());
      g.drawLine(legendX, top + 14 + si * 16, legendX + 20, top + 14 + si * 16);
      g.drawString(se.name(), legendX + 26, top + 18 + si * 16);
      int px = -1;
      int py = -1;
      for (PipelineSample s : samples) {
        double v = se.value().applyAsDouble(s);
        if (Double.isNaN(v)) {
          px = -1;
          continue;
        }
        int x = LEFT + (int) Math.round(s.tS() / tMax * w);
        int y = top + PANEL_H - (int) Math.round(yMax == 0 ? 0 : v / yMax * PANEL_H);
        if (px >= 0) {
          g.drawLine(px, py, x, y);
        } else {
          g.fillRect(x - 1, y - 1, 3, 3);
        }
        px = x;
        py = y;
      }
    }
    g.setStroke(new BasicStroke(1f));
  }

  /** 1, 2 or 5 times a power of ten, at least v (1 for 0). */
  static double niceCeil(double v) {
    if (v <= 0) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }
}
