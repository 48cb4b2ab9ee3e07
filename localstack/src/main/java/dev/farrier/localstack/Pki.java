package dev.farrier.localstack;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Key pairs and X.509 certificates for the local control plane (and TLS tests elsewhere), made with BouncyCastle.
 * Keys are ECDSA P-256: generating one takes about a millisecond, where an RSA 2048 key took seconds on a busy machine
 * (every local stack makes three). The API server, etcd's clients, Go's TLS and the JDK's all take them.
 */
public final class Pki {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Backdated so a clock a little behind the one that issued the certificate still accepts it. */
  private static final Duration BACKDATE = Duration.ofHours(1);

  private Pki() {}

  /** A key pair with the certificate that holds its public key. */
  public record Issued(KeyPair keyPair, X509Certificate certificate) {}

  public static KeyPair keyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("ECDSA P-256 is not available in this JDK", e);
    }
  }

  public static Issued certificateAuthority(String commonName, Duration validity) {
    KeyPair keyPair = keyPair();
    X500Name subject = new X500Name("CN=" + commonName);
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = builder(subject, subject, keyPair, validity)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
          .addExtension(Extension.keyUsage, true,
              new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
          .addExtension(Extension.subjectKeyIdentifier, false,
              extensions.createSubjectKeyIdentifier(keyPair.getPublic()));
      return new Issued(keyPair, sign(builder, keyPair));
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot build the CA certificate", e);
    }
  }

  /**
   * A TLS serving certificate signed by {@code ca}, valid for the given DNS names and IP addresses (subject
   * alternative names: Go's TLS stack ignores the common name).
   */
  public static Issued servingCertificate(Issued ca, String commonName, List<String> dnsNames, List<String> ipAddresses,
      Duration validity) {
    KeyPair keyPair = keyPair();
    List<GeneralName> names = new ArrayList<>();
    dnsNames.forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
    ipAddresses.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X500Name issuer = X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded());
      X509v3CertificateBuilder builder = builder(issuer, new X500Name("CN=" + commonName), keyPair, validity)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true,
              new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false,
              new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)))
          .addExtension(Extension.authorityKeyIdentifier, false,
              extensions.createAuthorityKeyIdentifier(ca.certificate()));
      return new Issued(keyPair, sign(builder, ca.keyPair()));
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot build the serving certificate", e);
    }
  }

  /**
   * PEM text of a certificate, private key (PKCS#8 "PRIVATE KEY": the JDK encodes an EC key without its curve inside,
   * which Go's SEC 1 "EC PRIVATE KEY" parser refuses) or public key ("PUBLIC KEY").
   */
  public static String pem(Object object) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(object instanceof PrivateKey key ? new JcaPKCS8Generator(key, null) : object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keyPair,
      Duration validity) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, new BigInteger(127, RANDOM).add(BigInteger.ONE),
        Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), subject, keyPair.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("cannot create the SHA256withECDSA signer", e);
    }
  }
}
