package dev.farrier.workflows.testing;

import dev.farrier.model.RolloutPreview;
import dev.farrier.model.RolloutPreview.PreviewEstimate;
import dev.farrier.workflows.activities.PreviewActivities;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A hand-written PreviewActivities: answers what the test says (by default: nothing to replace), keeping each request. */
public class FakePreviewActivities implements PreviewActivities {
  private final CallJournal journal;
  public final List<PreviewRolloutRequest> requests = new CopyOnWriteArrayList<>();
  private volatile Function<PreviewRolloutRequest, RolloutPreview> answer = FakePreviewActivities::nothingToReplace;

  public FakePreviewActivities(CallJournal journal) {
    this.journal = journal;
  }

  public void onPreview(Function<PreviewRolloutRequest, RolloutPreview> answer) {
    this.answer = answer;
  }

  @Override
  public RolloutPreview previewRollout(PreviewRolloutRequest request) {
    requests.add(request);
    journal.record("previewRollout", request.target().workflowId());
    return answer.apply(request);
  }

  public static RolloutPreview nothingToReplace(PreviewRolloutRequest r) {
    return new RolloutPreview(r.target().workflowId(), r.running() != null, r.target().nodePools(), "default", r.targetText(),
        List.of("ami-new"), r.rolling(), r.canary(), 1, List.of(), List.of(), List.of(), 0,
        new PreviewEstimate(0, null, null, null, "no history"), "nothing to replace", null);
  }
}
