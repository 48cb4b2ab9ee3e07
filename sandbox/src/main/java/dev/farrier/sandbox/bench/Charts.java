package dev.farrier.sandbox.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The benchmarks' figures: line charts written as PNG by JFreeChart, headless. */
public final class Charts {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  private static final int WIDTH = 960;
  private static final int HEIGHT = 540;

  private Charts() {}

  /** A named line through points (x, y). */
  public record Line(String name, List<double[]> points) {
    public Line {
      points = List.copyOf(points);
    }
  }

  /** Writes an XY line chart of {@code lines} to {@code png}. */
  public static Path lines(Path png, String title, String xLabel, String yLabel, List<Line> lines) throws IOException {
    var data = new XYSeriesCollection();
    for (Line line : lines) {
      var series = new XYSeries(line.name(), false, true);
      line.points().forEach(p -> series.add(p[0], p[1]));
      data.addSeries(series);
    }
    JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
    Files.createDirectories(png.toAbsolutePath().getParent());
    ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    return png;
  }

  /**
   * The empirical distribution of {@code values} as a line: for each value in ascending order, the share of values at
   * or below it (0 to 1), so latencies of several runs can be compared on one chart.
   */
  public static Line distribution(String name, Collection<? extends Number> values) {
    double[] sorted = values.stream().mapToDouble(Number::doubleValue).toArray();
    Arrays.sort(sorted);
    List<double[]> points = new ArrayList<>();
    for (int i = 0; i < sorted.length; i++) {
      points.add(new double[] {sorted[i], (i + 1) / (double) sorted.length});
    }
    return new Line(name, points);
  }
}
