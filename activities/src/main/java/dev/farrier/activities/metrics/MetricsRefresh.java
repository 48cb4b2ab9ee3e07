package dev.farrier.activities.metrics;

/**
 * Gauges whose label values come and go, set again from their source just before each scrape, so a scrape shows the
 * state of that moment and nothing runs between scrapes. A refresh that fails leaves the last values and is logged.
 */
public interface MetricsRefresh {
  void refresh();
}
