package dev.farrier.starter;

import dev.farrier.migrate.MigratedFile;
import dev.farrier.migrate.MigrationException;
import dev.farrier.migrate.Migrator;
import dev.farrier.migrate.Report;
import dev.farrier.migrate.Source;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code farrier migrate}: old Karpenter manifests (v1alpha5 Provisioners, v1alpha1 AWSNodeTemplates, v1beta1
 * NodePools and EC2NodeClasses) to v1, with a report beside each output. Needs neither Temporal nor, unless
 * {@code --from-cluster}, a cluster.
 */
@Command(name = "migrate", description = {
    "Migrate old Karpenter manifests (v1alpha5 Provisioner and AWSNodeTemplate, v1beta1 NodePool and EC2NodeClass) to v1 "
        + "NodePools and EC2NodeClasses that keep the behaviour they had, and say what changed and why.",
    "Files are migrated together (a NodePool and its class may be apart); v1 objects and other kinds are left as they "
        + "are, except the pods' renamed Karpenter annotations and label. Bad input writes nothing.",
    "Without -o the manifests go to standard output and the reports to standard error; with -o each input FILE is "
        + "written as DIR/FILE with its report beside it as DIR/FILE.migration.md."})
final class MigrateCommand extends FarrierCommand {
  /** What a report's file name adds to its manifest's. */
  static final String REPORT_SUFFIX = ".migration.md";

  @Option(names = {"-f", "--filename"}, paramLabel = "FILE|DIR|-", description = "a manifest file, a directory (every "
      + "*.yaml and *.yml under it) or - for standard input; repeatable")
  List<String> inputs = new ArrayList<>();

  @Option(names = "--from-cluster", description = "also read the old objects the cluster serves (through --kubeconfig)")
  boolean fromCluster;

  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "for --from-cluster (default: $KUBECONFIG, else ~/.kube/config)")
  Path kubeconfig;

  @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR", description = "write the migrated manifests and reports here")
  Path outputDir;

  @Option(names = "--check", description = "exit 7 when anything needs a person (for CI); the output is written as without it")
  boolean check;

  @Option(names = "--default-instance-profile", paramLabel = "NAME", description = "the v1alpha5 controller's "
      + "aws.defaultInstanceProfile: written on the EC2NodeClass of a template that named no instance profile")
  String defaultInstanceProfile;

  /** Standard input, replaced by tests. */
  InputStream stdin = System.in;

  @Override
  public Integer call() {
    if (inputs.isEmpty() && !fromCluster) {
      throw new CliException(ExitCodes.USAGE, "migrate needs -f FILE|DIR|- or --from-cluster");
    }
    Map<String, Source> sources = new LinkedHashMap<>();
    for (String input : inputs) {
      read(input).forEach(s -> add(sources, s, input));
    }
    if (fromCluster) {
      add(sources, ClusterManifests.read(kubeconfig), "--from-cluster");
    }
    List<MigratedFile> files;
    try {
      files = Migrator.migrate(List.copyOf(sources.values()), new Migrator.Options(defaultInstanceProfile));
    } catch (MigrationException e) {
      e.problems().forEach(p -> err().println("farrier migrate: " + p));
      throw new CliException(ExitCodes.USAGE, "nothing written: " + e.problems().size() + " problem(s) in the input");
    }
    if (outputDir == null) {
      for (MigratedFile file : files) {
        String text = file.text().isEmpty() || file.text().endsWith("\n") ? file.text() : file.text() + "\n";
        out().print(files.size() > 1 ? "# farrier migrate: " + file.source() + "\n" + text + "---\n" : text);
        err().println(Report.render(file));
      }
      out().flush();
    } else {
      write(files);
    }
    long changed = files.stream().filter(MigratedFile::changed).count();
    long people = files.stream().filter(MigratedFile::needsPerson).count();
    err().println("farrier migrate: " + files.size() + " input(s), " + changed + " changed, " + people
        + " with something that needs a person" + (outputDir == null ? "" : "; written to " + outputDir));
    return check && people > 0 ? ExitCodes.NEEDS_PERSON : ExitCodes.DONE;
  }

  /** Inputs are named by their file name (or path under a directory); two of one name would write one output. */
  private static void add(Map<String, Source> sources, Source source, String from) {
    Source before = sources.putIfAbsent(source.name(), source);
    if (before != null && !before.text().equals(source.text())) {
      throw new CliException(ExitCodes.USAGE, "two inputs are named " + source.name() + " (the second from " + from
          + "); their outputs would overwrite each other: migrate them in separate runs, or from one directory");
    }
  }

  private List<Source> read(String input) {
    try {
      if (input.equals("-")) {
        return List.of(new Source("stdin.yaml", new String(stdin.readAllBytes(), StandardCharsets.UTF_8)));
      }
      Path path = Path.of(input);
      if (Files.isDirectory(path)) {
        List<Source> found = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(path)) {
          for (Path file : walk.filter(Files::isRegularFile).filter(MigrateCommand::isManifest).sorted().toList()) {
            Path relative = path.relativize(file);
            boolean hidden = false;
            for (Path part : relative) {
              hidden |= part.toString().startsWith(".");
            }
            if (!hidden) {
              found.add(new Source(relative.toString(), Files.readString(file)));
            }
          }
        }
        if (found.isEmpty()) {
          throw new CliException(ExitCodes.USAGE, "no *.yaml or *.yml file under " + input);
        }
        return found;
      }
      if (!Files.isRegularFile(path)) {
        throw new CliException(ExitCodes.USAGE, "no such file or directory: " + input);
      }
      return List.of(new Source(path.getFileName().toString(), Files.readString(path)));
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot read " + input + ": " + e.getMessage());
    }
  }

  private static boolean isManifest(Path file) {
    String name = file.getFileName().toString();
    return (name.endsWith(".yaml") || name.endsWith(".yml")) && !name.endsWith(REPORT_SUFFIX);
  }

  /**
   * Every file to a temporary name beside its target first, then each renamed into place: a failure while writing
   * (a full disk, no permission) replaces none of the targets; renames within one directory do not fail half.
   */
  private void write(List<MigratedFile> files) {
    Map<Path, Path> staged = new LinkedHashMap<>();
    try {
      for (MigratedFile file : files) {
        Path target = target(outputDir, file.source());
        stage(staged, target, file.text());
        stage(staged, Path.of(target + REPORT_SUFFIX), Report.render(file));
      }
      for (var entry : staged.entrySet()) {
        try {
          Files.move(entry.getValue(), entry.getKey(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(entry.getValue(), entry.getKey(), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException e) {
      throw new CliException(ExitCodes.ERROR, "cannot write to " + outputDir + ": " + e.getMessage());
    } finally {
      for (Path temp : staged.values()) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException e) {
          err().println("farrier migrate: cannot remove " + temp + ": " + e.getMessage());
        }
      }
    }
  }

  /** Where an input's output goes under {@code outputDir} (absolute, so {@code -o .} works); never outside it. */
  static Path target(Path outputDir, String source) {
    Path root = outputDir.toAbsolutePath().normalize();
    Path target = root.resolve(source).normalize();
    if (!target.startsWith(root) || target.equals(root)) {
      throw new CliException(ExitCodes.USAGE, "refusing to write outside " + outputDir + ": " + source);
    }
    return target;
  }

  private static void stage(Map<Path, Path> staged, Path target, String text) throws IOException {
    Files.createDirectories(target.getParent());
    Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
    staged.put(target, temp);
    Files.writeString(temp, text);
  }
}
