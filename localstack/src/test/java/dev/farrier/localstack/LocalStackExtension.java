package dev.farrier.localstack;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects {@link LocalStack#shared()} into test constructors and methods that declare a {@link LocalStack}
 * parameter: {@code @ExtendWith(LocalStackExtension.class)}. The stack starts on first use and stops when the JVM
 * exits, so every test class in a test JVM shares one.
 */
public final class LocalStackExtension implements ParameterResolver {
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    return parameter.getParameter().getType() == LocalStack.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    return LocalStack.shared();
  }
}
