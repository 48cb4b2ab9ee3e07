package dev.farrier.worker.e2e;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.json.Json;
import org.openqa.selenium.remote.http.ClientConfig;

/**
 * The Temporal Web UI in a real headless Chromium, driven by Selenium through chromedriver (Debian's {@code chromium}
 * and {@code chromium-driver}, installed by {@code tools/install.sh browser}): lists workflows by a visibility query
 * as the UI's workflow list shows them, and reads a workflow's search attributes from its "Search Attributes" tab.
 *
 * <pre>{@code
 * try (var ui = TemporalUiBrowser.open(stack.temporalUiUrl(), runDir.resolve("ui"))) {
 *   var rows = ui.listWorkflows("default", "FarrierBlocker IS NOT NULL");
 *   var attributes = ui.searchAttributes("default", rows.getFirst().workflowId());
 * }
 * }</pre>
 * Visibility is eventually consistent, so both reads take a condition and load the page again until it holds. Every
 * wait is bounded by the timeout given to {@link #open}; a failure saves a screenshot and the page source in the debug
 * directory and names both in its message.
 */
public final class TemporalUiBrowser implements AutoCloseable {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration POLL = Duration.ofMillis(250);
  /** A page that has not rendered its data by then is loaded again (a busy 2-core machine needs several seconds). */
  private static final Duration PAGE_SETTLE = Duration.ofSeconds(20);
  /** Pause before loading again a page that rendered data not yet meeting the condition (visibility lags). */
  private static final Duration RELOAD_PAUSE = Duration.ofSeconds(1);
  private static final String HEADER_PREFIX = "workflows-summary-table-header-cell-";
  /** One snapshot of the list page, read in one script so a re-render cannot tear it. */
  private static final String READ_LIST = """
      const prefix = arguments[0];
      const headers = Array.from(document.querySelectorAll('th[data-testid^="' + prefix + '"]'),
          th => th.getAttribute('data-testid').substring(prefix.length));
      const rows = Array.from(document.querySelectorAll('tr[data-testid="workflows-summary-configurable-table-row"]'),
          tr => Array.from(tr.querySelectorAll('td[data-testid="workflows-summary-table-body-cell"]'),
              td => td.textContent.trim()));
      const notice = document.querySelector('table + div [aria-live="polite"] h2');
      const detail = notice && notice.nextElementSibling ? notice.nextElementSibling.textContent.trim() : '';
      return {headers: headers, rows: rows, notice: notice ? notice.textContent.trim() : '', detail: detail};
      """;
  private static final By SEARCH_ATTRIBUTES_TAB = By.cssSelector("a[data-testid='search-attributes-tab']");
  private static final By SEARCH_ATTRIBUTES_JSON = By.cssSelector("[role='textbox'][aria-label='Search Attributes']");

  /** A row of the workflow list; {@code columns} has every visible column by its header. */
  public record WorkflowRow(String workflowId, String type, String status, String runId, Map<String, String> columns) {}

  private final String baseUrl;
  private final Path debugDir;
  private final Duration timeout;
  private final ChromeDriver driver;
  private int dumps;

  private TemporalUiBrowser(String baseUrl, Path debugDir, Duration timeout, ChromeDriver driver) {
    this.baseUrl = baseUrl;
    this.debugDir = debugDir;
    this.timeout = timeout;
    this.driver = driver;
  }

  public static TemporalUiBrowser open(String uiBaseUrl, Path debugDir) throws IOException {
    return open(uiBaseUrl, debugDir, DEFAULT_TIMEOUT);
  }

  /** Starts chromedriver and a headless Chromium; its log goes to {@code debugDir/chromedriver.log}. */
  public static TemporalUiBrowser open(String uiBaseUrl, Path debugDir, Duration timeout) throws IOException {
    requireExecutable(CHROMIUM, "chromium");
    requireExecutable(CHROMEDRIVER, "chromium-driver");
    Files.createDirectories(debugDir);
    var service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .withLogFile(debugDir.resolve("chromedriver.log").toFile())
        .build();
    var options = new ChromeOptions();
    // An explicit binary and driver keep Selenium Manager from looking for (and downloading) a browser.
    options.setBinary(CHROMIUM.toString());
    // --no-sandbox: tests run as root in a container; --disable-dev-shm-usage: a container's /dev/shm may be tiny.
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1600,1200",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync");
    var client = ClientConfig.defaultConfig().readTimeout(timeout);
    var driver = new ChromeDriver(service, options, client);
    driver.manage().timeouts().pageLoadTimeout(timeout).scriptTimeout(Duration.ofSeconds(10));
    return new TemporalUiBrowser(stripTrailingSlash(uiBaseUrl), debugDir, timeout, driver);
  }

  /** The workflow list filtered by {@code query}, once it shows at least one workflow. */
  public List<WorkflowRow> listWorkflows(String namespace, String query) {
    return listWorkflows(namespace, query, rows -> !rows.isEmpty());
  }

  /**
   * Opens {@code /namespaces/<namespace>/workflows?query=<query>} and returns its rows once {@code until} holds for
   * them, loading the page again while it does not. A query the server rejects fails at once with the UI's message.
   */
  public List<WorkflowRow> listWorkflows(String namespace, String query, Predicate<List<WorkflowRow>> until) {
    String url = listUrl(baseUrl, namespace, query);
    return poll("the workflow list " + url, () -> {
      ListPage page = readList();
      if (page.notice().startsWith("Error")) {
        throw new IllegalArgumentException("the Temporal UI rejected the query [" + query + "]: " + page.detail());
      }
      if (page.rows().isEmpty() && page.notice().isEmpty()) {
        return Reading.loading();
      }
      return until.test(page.rows()) ? Reading.done(page.rows()) : Reading.stale();
    }, url);
  }

  /** Every custom search attribute of the workflow's latest run, as its "Search Attributes" tab shows them. */
  public Map<String, Object> searchAttributes(String namespace, String workflowId) {
    return searchAttributes(namespace, workflowId, attributes -> true);
  }

  /**
   * Opens the workflow's page (the latest run), then its "Search Attributes" tab, a read-only JSON view of the custom
   * search attributes (an unset one is absent), and returns them once {@code until} holds, loading again until then.
   * The view renders only the lines that fit the window (some 50 attributes), far more than a Farrier workflow has.
   */
  public Map<String, Object> searchAttributes(String namespace, String workflowId, Predicate<Map<String, Object>> until) {
    String url = baseUrl + "/namespaces/" + encode(namespace) + "/workflows/" + encode(workflowId);
    return poll("the search attributes of " + workflowId, () -> {
      var tab = driver.findElements(SEARCH_ATTRIBUTES_TAB);
      if (tab.isEmpty()) {
        return Reading.loading();
      }
      if (!driver.getCurrentUrl().endsWith("/search-attributes")) {
        driver.get(tab.getFirst().getDomProperty("href"));
      }
      var json = driver.findElements(SEARCH_ATTRIBUTES_JSON);
      String text = json.isEmpty() ? "" : json.getFirst().getDomProperty("textContent");
      if (text == null || text.isBlank()) {
        return Reading.loading();
      }
      Map<String, Object> attributes = new Json().toType(text, Json.MAP_TYPE);
      return until.test(attributes) ? Reading.done(attributes) : Reading.stale();
    }, url);
  }

  /** Saves a screenshot and the page source as {@code <n>-<label>.png/.html}; returns what it saved. */
  public List<Path> saveDebugFiles(String label) {
    String name = String.format("%02d-%s", ++dumps, label.replaceAll("[^A-Za-z0-9_.-]+", "_"));
    List<Path> saved = new ArrayList<>();
    try {
      saved.add(Files.write(debugDir.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES)));
      saved.add(Files.writeString(debugDir.resolve(name + ".html"), driver.getPageSource()));
    } catch (IOException | WebDriverException e) {
      // The browser may be what failed; whatever could be saved is listed.
    }
    return saved;
  }

  @Override
  public void close() {
    driver.quit();
  }

  /** The list page's address; {@code ?query=} is how the UI itself links a filtered list. */
  static String listUrl(String baseUrl, String namespace, String query) {
    return stripTrailingSlash(baseUrl) + "/namespaces/" + encode(namespace) + "/workflows?query=" + encode(query);
  }

  /** Percent-encoding as in a path segment or query value: a space is %20, not +; a slash is %2F as the UI writes it. */
  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** What one look at the page found: not rendered yet, rendered but not meeting the condition, or the result. */
  private record Reading<T>(boolean rendered, T value) {
    static <T> Reading<T> loading() {
      return new Reading<>(false, null);
    }

    static <T> Reading<T> stale() {
      return new Reading<>(true, null);
    }

    static <T> Reading<T> done(T value) {
      return new Reading<>(true, Objects.requireNonNull(value));
    }
  }

  /**
   * Loads {@code url} and reads it every {@link #POLL} until it answers; loads it again {@link #RELOAD_PAUSE} after it
   * rendered a stale answer, or after {@link #PAGE_SETTLE} without one; gives up at the timeout.
   */
  private <T> T poll(String what, Supplier<Reading<T>> attempt, String url) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    try {
      while (System.nanoTime() < deadline) {
        driver.get(url);
        long settle = Math.min(deadline, System.nanoTime() + PAGE_SETTLE.toNanos());
        while (System.nanoTime() < settle) {
          Reading<T> reading = Reading.loading();
          try {
            reading = attempt.get();
          } catch (WebDriverException e) {
            last = e; // e.g. an element re-rendered between finding and reading it
          }
          if (reading.value() != null) {
            return reading.value();
          }
          if (reading.rendered()) {
            Thread.sleep(RELOAD_PAUSE);
            break;
          }
          Thread.sleep(POLL);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("interrupted while waiting for " + what, e);
    } catch (RuntimeException e) {
      throw failure(e.getMessage(), e);
    }
    throw failure("timed out after " + timeout.toSeconds() + " s waiting for " + what, last);
  }

  private RuntimeException failure(String message, Throwable cause) {
    String full = message + " (page " + currentUrlOrUnknown() + "; saved " + saveDebugFiles("failure") + ")";
    return cause instanceof IllegalArgumentException ? new IllegalArgumentException(full, cause)
        : new IllegalStateException(full, cause);
  }

  private String currentUrlOrUnknown() {
    try {
      return driver.getCurrentUrl();
    } catch (WebDriverException e) {
      return "unknown";
    }
  }

  private record ListPage(List<WorkflowRow> rows, String notice, String detail) {}

  @SuppressWarnings("unchecked")
  private ListPage readList() {
    var page = (Map<String, Object>) driver.executeScript(READ_LIST, HEADER_PREFIX);
    var headers = (List<String>) page.get("headers");
    List<WorkflowRow> rows = new ArrayList<>();
    for (var cells : (List<List<String>>) page.get("rows")) {
      Map<String, String> columns = new LinkedHashMap<>();
      for (int i = 0; i < Math.min(headers.size(), cells.size()); i++) {
        columns.put(headers.get(i), cells.get(i));
      }
      String id = columns.getOrDefault("Workflow ID", "");
      if (id.isEmpty()) {
        return new ListPage(List.of(), "", ""); // still rendering
      }
      rows.add(new WorkflowRow(id, columns.get("Type"), columns.get("Status"), columns.get("Run ID"), columns));
    }
    return new ListPage(rows, (String) page.get("notice"), (String) page.get("detail"));
  }

  private static void requireExecutable(Path binary, String debianPackage) {
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("no " + binary + ": the Temporal UI tests need Debian's " + debianPackage
          + " package; run `tools/install.sh browser` (part of `make tools`)");
    }
  }

  private static String stripTrailingSlash(String url) {
    return Objects.requireNonNull(url).endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
