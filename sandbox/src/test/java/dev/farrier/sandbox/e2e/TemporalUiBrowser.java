package dev.farrier.sandbox.e2e;

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
import java.util.UUID;
import java.util.function.Predicate;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.SearchContext;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.json.Json;
import org.openqa.selenium.remote.http.ClientConfig;

/**
 * The Temporal Web UI in a real headless Chromium, driven by Selenium through chromedriver (Debian's {@code chromium}
 * and {@code chromium-driver}, installed by {@code tools/install.sh browser}): lists workflows by a visibility query
 * as the UI's workflow list shows them, reads a workflow's search attributes from its "Search Attributes" tab, and
 * acts on a workflow as an operator does, from its page's "More Actions" menu: "Send an Update".
 *
 * <pre>{@code
 * try (var ui = TemporalUiBrowser.open(stack.temporalUiUrl(), runDir.resolve("ui"))) {
 *   var rows = ui.listWorkflows("default", "FarrierBlocker IS NOT NULL");
 *   var attributes = ui.searchAttributes("default", rows.getFirst().workflowId());
 *   var paused = ui.sendUpdate("default", "disrupt/nc-1", "Pause", "{\"reason\": \"bad AMI\", \"by\": \"alice\"}");
 * }
 * }</pre>
 * Visibility is eventually consistent, so both reads take a condition and load the page again until it holds. Every
 * wait is bounded by the timeout given to {@link #open}; a failure saves a screenshot and the page source in the debug
 * directory and names both in its message.
 */
public final class TemporalUiBrowser implements AutoCloseable {
  /**
   * A bound, not a pace: with four end-to-end JVMs on 2 cores (load average up to 10), headless Chromium once left the
   * UI's page blank for the whole of a 60 s bound.
   */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(180);
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
  private static final By HISTORY_TAB = By.cssSelector("a[data-testid='history-tab']");
  private static final By MORE_ACTIONS = By.cssSelector("button[aria-controls='workflow-actions']");
  private static final By UPDATE_ID = By.cssSelector("input[data-testid='update-id']");
  private static final By DATA_EDITOR = By.cssSelector("[role='textbox'][aria-label='Data'][contenteditable='true']");
  private static final By SUBMIT = By.cssSelector("button[data-testid='confirm-modal-button']");
  private static final By TOAST = By.cssSelector("[data-testid='toast-live-region-polite']");
  /** The dialog's error panel (its first line is the message, a stack trace may follow) or its one-line error. */
  private static final By DIALOG_ERROR = By.cssSelector("div[role='alert'] p, p[role='alert']");
  private static final String UPDATE_SUCCEEDED = "Update successful";
  /**
   * The result of the Update with id {@code arguments[0]} as the Event History shows it: the "Workflow Execution Update
   * Completed" row's outcome. Only a row's expanded details name its Update ID, so rows not yet expanded are expanded
   * and read at the next look.
   */
  private static final String READ_UPDATE_RESULT = """
      const updateId = arguments[0];
      const events = Array.from(document.querySelectorAll('tr[data-testid="event-summary-row"]'));
      const rows = events.filter(tr => tr.textContent.includes('Workflow Execution Update Completed'));
      let expanding = 0;
      for (const tr of rows) {
        const next = tr.nextElementSibling;
        if (!next || next.getAttribute('data-testid') !== 'event-summary-row-expanded') {
          const expand = tr.querySelector('button[aria-label="Expand details"]');
          if (expand) { expand.click(); expanding++; }
        } else if (next.textContent.includes(updateId)) {
          const outcome = tr.querySelector('pre') || tr.cells[tr.cells.length - 1];
          return {found: true, result: outcome.textContent.trim(), events: events.length, expanding: 0};
        }
      }
      return {found: false, result: '', events: events.length, expanding: expanding};
      """;

  /**
   * What the UI answered to an Update sent from the "Send an Update" dialog.
   *
   * @param succeeded true when the UI said "Update successful"
   * @param updateId  the id the dialog sent it with (its "Update ID" field)
   * @param text      when it succeeded, its result as the Event History's "Workflow Execution Update Completed" event
   *                  shows it (JSON); otherwise the message the dialog shows, e.g. a validator's refusal
   */
  public record UpdateOutcome(boolean succeeded, String updateId, String text) {}

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
    String url = workflowUrl(namespace, workflowId);
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

  /**
   * Sends an Update as an operator does from the workflow's page (the latest run): "More Actions", "Send an Update",
   * the name from the "Name" list (the UI lists the Updates the running worker declares), a fresh "Update ID", the
   * JSON in "Data", "Submit". The UI waits for the Update to complete; a success is then read from the Event History.
   */
  public UpdateOutcome sendUpdate(String namespace, String workflowId, String updateName, String jsonInput) {
    String what = "Update " + updateName + " of " + workflowId;
    try {
      var dialog = openActionDialog(namespace, workflowId, "update-button", "update-confirmation-modal");
      chooseName(dialog, "update-select", updateName);
      String updateId = UUID.randomUUID().toString();
      click(visible(dialog, UPDATE_ID));
      visible(dialog, UPDATE_ID).sendKeys(updateId);
      typeData(dialog, jsonInput);
      submit(dialog);
      Answer answer = awaitAnswer(dialog, what);
      if (answer.refused() || !answer.text().contains(UPDATE_SUCCEEDED)) {
        return new UpdateOutcome(false, updateId, answer.text());
      }
      return new UpdateOutcome(true, updateId, updateResult(workflowId, updateId));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("interrupted while sending " + what, e);
    } catch (WebDriverException e) {
      throw failure("sending " + what + ": " + e.getMessage(), e);
    }
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

  /** Loads the workflow's page, opens "More Actions", chooses the item and returns the dialog it opens. */
  private WebElement openActionDialog(String namespace, String workflowId, String itemTestId, String dialogId)
      throws InterruptedException {
    driver.get(workflowUrl(namespace, workflowId));
    // The page also renders a hidden copy of the menu and dialogs for narrow windows: only the visible ones are used.
    click(await("the More Actions menu", () -> visible(driver, MORE_ACTIONS)));
    var item = await("the " + itemTestId + " item", () -> visible(driver,
        By.cssSelector("li[data-testid='" + itemTestId + "']:not([aria-disabled='true'])")));
    click(item);
    return await("the " + dialogId + " dialog", () -> visible(driver, By.cssSelector("dialog#" + dialogId + "[open]")));
  }

  /** Opens the dialog's name list and picks {@code name} once the UI lists it (it asks the worker for the names). */
  private void chooseName(WebElement dialog, String selectTestId, String name) throws InterruptedException {
    click(visible(dialog, By.cssSelector("button[data-testid='" + selectTestId + "-button']")));
    By options = By.cssSelector("ul#" + selectTestId + "-select li[role='option']");
    List<String> seen = new ArrayList<>();
    try {
      click(await(name + " in the name list", () -> {
        seen.clear();
        for (var option : dialog.findElements(options)) {
          String text = option.getText().strip();
          seen.add(text);
          if (text.equals(name) && option.isDisplayed()) {
            return option;
          }
        }
        return null;
      }));
    } catch (IllegalStateException e) {
      throw new IllegalStateException("the name list offers " + seen + ", not " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * Types the JSON into the "Data" editor, then takes the focus away: the editor then reformats the JSON, which moves
   * the Submit button, and a click while it moves misses.
   */
  private void typeData(WebElement dialog, String jsonInput) {
    if (jsonInput == null || jsonInput.isBlank()) {
      return;
    }
    var editor = visible(dialog, DATA_EDITOR);
    click(editor);
    editor.sendKeys(jsonInput);
    driver.executeScript("arguments[0].blur()", editor);
  }

  private void submit(WebElement dialog) throws InterruptedException {
    click(await("an enabled Submit", () -> {
      var button = visible(dialog, SUBMIT);
      return button != null && button.isEnabled() ? button : null;
    }));
  }

  /** What the UI answered to a submitted dialog: the error the dialog shows (its first line), or else its toast. */
  private record Answer(boolean refused, String text) {}

  private Answer awaitAnswer(WebElement dialog, String what) throws InterruptedException {
    return await("the UI's answer to " + what, () -> {
      // A closed dialog's error elements are hidden and read as empty.
      var error = dialog.findElements(DIALOG_ERROR).stream()
          .map(WebElement::getText).map(String::strip).filter(text -> !text.isEmpty()).findFirst();
      if (error.isPresent()) {
        return new Answer(true, error.get().lines().findFirst().orElseThrow());
      }
      // The toast region is a live region Selenium may not count as displayed: its text is read as the DOM has it.
      String toast = driver.findElements(TOAST).stream().map(region -> region.getDomProperty("textContent"))
          .filter(Objects::nonNull).map(String::strip).filter(text -> !text.isEmpty()).findFirst().orElse("");
      return toast.isEmpty() ? null : new Answer(false, toast);
    });
  }

  /** The result of the Update, from the "Workflow Execution Update Completed" event of the Event History tab. */
  private String updateResult(String workflowId, String updateId) throws InterruptedException {
    String historyUrl = await("the Event History tab", () -> {
      var tab = driver.findElements(HISTORY_TAB);
      return tab.isEmpty() ? null : tab.getFirst().getDomProperty("href");
    });
    return poll("the result of Update " + updateId + " of " + workflowId, () -> {
      @SuppressWarnings("unchecked")
      var read = (Map<String, Object>) driver.executeScript(READ_UPDATE_RESULT, updateId);
      if (Boolean.TRUE.equals(read.get("found"))) {
        return Reading.done((String) read.get("result"));
      }
      // No events yet: still loading. Rows just expanded are read at the next look. Every row read and none matching:
      // load again.
      boolean rendered = ((Number) read.get("events")).intValue() > 0 && ((Number) read.get("expanding")).intValue() == 0;
      return rendered ? Reading.stale() : Reading.loading();
    }, historyUrl);
  }

  /** Polls {@code find} every {@link #POLL} until it returns non-null, at most the timeout. */
  private <T> T await(String what, Supplier<T> find) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        T found = find.get();
        if (found != null) {
          return found;
        }
      } catch (WebDriverException e) {
        last = e; // re-rendered between finding and reading
      }
      Thread.sleep(POLL);
    }
    throw failure("timed out after " + timeout.toSeconds() + " s waiting for " + what, last);
  }

  /** The first displayed match, or null. */
  private static WebElement visible(SearchContext within, By by) {
    return within.findElements(by).stream().filter(WebElement::isDisplayed).findFirst().orElse(null);
  }

  /**
   * Clicks, waiting out what still covers the element for a moment: a dialog's opening animation or a list closing,
   * which on a loaded machine take longer than the next step ("element click intercepted").
   */
  private static void click(WebElement element) {
    Objects.requireNonNull(element, "no such element");
    long deadline = System.nanoTime() + COVERED_AT_MOST.toNanos();
    while (true) {
      try {
        element.click();
        return;
      } catch (ElementClickInterceptedException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        LockSupport.parkNanos(POLL.toNanos());
      }
    }
  }

  /** How long an element may stay covered before a click on it fails. */
  private static final Duration COVERED_AT_MOST = Duration.ofSeconds(10);

  private String workflowUrl(String namespace, String workflowId) {
    return baseUrl + "/namespaces/" + encode(namespace) + "/workflows/" + encode(workflowId);
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
