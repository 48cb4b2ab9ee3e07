package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The EBS volume of a block device mapping; {@code volumeSize} as written ({@code 100Gi});
 * {@code volumeInitializationRate} in MiB/s (the CRD allows it only with a {@code snapshotID}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BlockDevice(Boolean deleteOnTermination, Boolean encrypted, Long iops, String kmsKeyID, String snapshotID, Long throughput,
    String volumeSize, String volumeType, Integer volumeInitializationRate) {
  /** A volume with EBS's default initialization rate. */
  public BlockDevice(Boolean deleteOnTermination, Boolean encrypted, Long iops, String kmsKeyID, String snapshotID, Long throughput,
      String volumeSize, String volumeType) {
    this(deleteOnTermination, encrypted, iops, kmsKeyID, snapshotID, throughput, volumeSize, volumeType, null);
  }

  /**
   * The record's form, leaving out an unset {@code volumeInitializationRate}: launch template names hash this text, and
   * the templates of classes that never set the rate keep the names they had before it existed.
   */
  @Override
  public String toString() {
    return "BlockDevice[deleteOnTermination=" + deleteOnTermination + ", encrypted=" + encrypted + ", iops=" + iops + ", kmsKeyID=" + kmsKeyID
        + ", snapshotID=" + snapshotID + ", throughput=" + throughput + ", volumeSize=" + volumeSize + ", volumeType=" + volumeType
        + (volumeInitializationRate == null ? "" : ", volumeInitializationRate=" + volumeInitializationRate) + "]";
  }
}
