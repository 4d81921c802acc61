//! Certificate authorities and server certificates made at test time.

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose};

/// A private certificate authority.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A server's certificate (PEM) and its private key (PEM).
pub struct ServerCert {
    pub cert_pem: String,
    pub key_pem: String,
}

impl TestCa {
    /// A new authority called `name`.
    pub fn new(name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate().expect("a CA key");
        TestCa { issuer: CertifiedIssuer::self_signed(params, key).expect("the CA's certificate") }
    }

    /// The authority's certificate (PEM), what a client is told to trust.
    pub fn cert_pem(&self) -> String {
        self.issuer.pem()
    }

    /// A certificate signed by this authority for `names` (host names or
    /// IP addresses).
    pub fn server(&self, names: &[&str]) -> ServerCert {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).expect("server parameters");
        params.distinguished_name.push(DnType::CommonName, "Tabula test server");
        let key = KeyPair::generate().expect("a server key");
        let cert = params.signed_by(&key, &self.issuer).expect("the server's certificate");
        ServerCert { cert_pem: cert.pem(), key_pem: key.serialize_pem() }
    }
}
