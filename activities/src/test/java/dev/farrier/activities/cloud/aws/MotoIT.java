package dev.farrier.activities.cloud.aws;

import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Base of the AWS adapter tests: real SDK clients against the shared stack's moto server. moto is one account
 * shared by every test class of the JVM, so each test keeps to resources it names or tags with {@link #unique}.
 */
@ExtendWith(LocalStackExtension.class)
public abstract class MotoIT {
  protected static final String REGION = "us-east-1";
  protected static AwsConnection connection;
  protected static AwsClients aws;

  @BeforeAll
  static void connect(LocalStack stack) {
    connection = AwsConnection.emulator(REGION, stack.motoEndpoint());
    aws = new AwsClients(connection);
  }

  @AfterAll
  static void disconnect() {
    aws.close();
  }

  protected static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
