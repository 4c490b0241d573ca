//! Picks a random design: entities from a shared vocabulary of attributes
//! and key templates chosen to stress the checker, indexes keyed by
//! templates or plain attributes, and patterns derived from the templates.
//! A write-sharded design ends some partition templates (the table's and
//! GSIs') with a `{shard}` (random) or `{bucket}` (calculated from another
//! key hole of the entity) hole; patterns rarely know the shard.

use super::design::{Attr, Design, Entity, Index, Known, Pattern, Rng, Template, Ty, holes, template};

const PK: &[&str] = &[
    "TENANT#{tenantId}",
    "ORDER#{orderId}",
    "FOLDER#{folderId}",
    "STORE#{storeId}",
];

const SK: &[&str] = &[
    "PROFILE",
    "META",
    "ORDER#{orderId}",
    "ORDER#{orderId}#LINE#{lineNo}",
    "LINE#{lineNo}",
    "LOG#{tag}{seq}",
    "LOG#{tag}#{seq}",
    "{aisle}#{sku}",
    "EVENT#{at}#{noteId}",
    "DAY#{day}",
    "P#{priority}#{at}",
    "S#{status}#{day}",
    "FOLDER#{folderId}#NOTE#{noteId}",
    "NOTE#{noteId}",
    "AMT#{amount}",
    "{name}",
    "SEQ#{seq}",
];

const OPS: [&str; 4] = ["<", "<=", ">", ">="];

const GSI_PK: &[&str] = &[
    "STATUS#{status}",
    "TENANT#{tenantId}",
    "P#{priority}",
    "{storeId}",
    "ALL",
];

fn vocabulary(rng: &mut Rng) -> Vec<(&'static str, Ty)> {
    vec![
        ("tenantId", Ty::Id),
        ("orderId", rng.pick(&[Ty::Id, Ty::Ulid]).clone()),
        ("lineNo", rng.pick(&[Ty::Int, Ty::Pad(4), Ty::Pad(2)]).clone()),
        ("folderId", Ty::Id),
        ("noteId", rng.pick(&[Ty::Ulid, Ty::Id]).clone()),
        ("tag", rng.pick(&[Ty::Str, Ty::Id]).clone()),
        ("seq", rng.pick(&[Ty::Int, Ty::Pad(3)]).clone()),
        ("priority", Ty::Enum(&["high", "high-urgent", "low"])),
        ("status", Ty::Enum(&["open", "opened", "closed"])),
        ("day", Ty::Date),
        ("at", Ty::Datetime),
        ("amount", Ty::Decimal),
        ("aisle", Ty::Enum(&["dairy", "dairy-free", "bakery"])),
        ("sku", Ty::Id),
        ("storeId", Ty::Id),
        ("name", Ty::Str),
    ]
}

/// A write-sharded design (from its own generator, so that the designs
/// without shards stay those of earlier runs): the shard count, and how
/// often a partition template gets a shard hole.
struct Sharding {
    rng: Rng,
    count: u32,
}

impl Sharding {
    fn new(seed: u64) -> Option<Sharding> {
        let mut rng = Rng::new(seed ^ 0x5_4a4d);
        rng.chance(25).then(|| Sharding {
            count: 2 + rng.below(3) as u32,
            rng,
        })
    }

    /// The template, maybe with a shard hole at its end: a random
    /// `{shard}` or a `{bucket}` calculated from another attribute.
    fn suffix(&mut self, text: &str, percent: u64) -> String {
        if !self.rng.chance(percent) {
            return text.to_string();
        }
        let hole = if self.rng.chance(55) { "shard" } else { "bucket" };
        let sep = self.rng.pick(&[".", "#"]);
        format!("{text}{sep}{{{hole}}}")
    }
}

/// Gives `bucket: shard(N, of source)` to each entity whose keys have a
/// `{bucket}` hole: the source is one of its other key holes (often the
/// partition key's own, which every pattern on that path knows).
fn add_buckets(entities: &mut [Entity], sharding: &mut Sharding) {
    for e in entities.iter_mut() {
        let mut sources: Vec<String> = Vec::new();
        let mut pk_sources: Vec<String> = Vec::new();
        let mut wants = false;
        for (k, t) in &e.keys {
            for h in holes(t) {
                let attr = e.attr(h);
                wants |= h == "bucket";
                if let Some(a) = attr.filter(|a| !a.optional && !a.ty.is_shard()) {
                    if k == "pk" && !pk_sources.contains(&a.name) {
                        pk_sources.push(a.name.clone());
                    }
                    if !sources.contains(&a.name) {
                        sources.push(a.name.clone());
                    }
                }
            }
        }
        if !wants || e.attr("bucket").is_some() {
            continue;
        }
        let source = if !pk_sources.is_empty() && sharding.rng.chance(50) {
            sharding.rng.pick(&pk_sources).clone()
        } else {
            sharding.rng.pick(&sources).clone()
        };
        // Sometimes another count than its neighbours': a collection then
        // reads the most shards any of them writes.
        let count = sharding.count + u32::from(sharding.rng.chance(25));
        e.attrs.push(Attr {
            name: "bucket".into(),
            ty: Ty::ShardOf(count, source),
            optional: false,
        });
    }
}

fn ty_of(vocab: &[(&str, Ty)], name: &str) -> Ty {
    vocab.iter().find(|(n, _)| *n == name).unwrap().1.clone()
}

fn add_attr(e: &mut Entity, vocab: &[(&str, Ty)], name: &str, optional: bool) {
    if e.attr(name).is_none() {
        e.attrs.push(Attr {
            name: name.into(),
            ty: ty_of(vocab, name),
            optional,
        });
    }
}

fn set_key(e: &mut Entity, vocab: &[(&str, Ty)], key: &str, text: &str) {
    let t = template(text);
    for h in holes(&t) {
        // `bucket` is calculated from another attribute: `add_buckets`.
        if h != "bucket" {
            add_attr(e, vocab, h, false);
        }
    }
    e.keys.push((key.into(), t));
}

pub fn design(seed: u64) -> Design {
    let mut rng = Rng::new(seed);
    let mut vocab = vocabulary(&mut rng);
    let mut sharding = Sharding::new(seed);
    if let Some(s) = &sharding {
        vocab.push(("shard", Ty::Shard(s.count)));
    }
    let families: Vec<String> = (0..1 + rng.below(2))
        .map(|_| {
            let pk = *rng.pick(PK);
            match &mut sharding {
                Some(s) => s.suffix(pk, 75),
                None => pk.to_string(),
            }
        })
        .collect();
    let mut entities: Vec<Entity> = Vec::new();
    let mut used: Vec<(String, String)> = Vec::new();
    for n in 0..2 + rng.below(5) {
        let mut e = Entity {
            name: format!("E{n}"),
            attrs: Vec::new(),
            keys: Vec::new(),
        };
        let pk = rng.pick(&families).as_str();
        let mut sk = *rng.pick(SK);
        for _ in 0..5 {
            if !used.contains(&(pk.to_string(), sk.to_string())) {
                break;
            }
            sk = *rng.pick(SK);
        }
        used.push((pk.into(), sk.into()));
        set_key(&mut e, &vocab, "pk", pk);
        set_key(&mut e, &vocab, "sk", sk);
        for (extra, p) in [("status", 50), ("at", 30), ("name", 30)] {
            if rng.chance(p) {
                add_attr(&mut e, &vocab, extra, rng.chance(20));
            }
        }
        entities.push(e);
    }
    let mut indexes = Vec::new();
    for g in 1..=rng.below(3) {
        let projection = rng.pick(&["", "", "", " keys_only", " include(status)"]).to_string();
        if rng.chance(60) {
            let (pk, sk) = (format!("gsi{g}pk"), format!("gsi{g}sk"));
            let with_sk = rng.chance(80);
            for e in entities.iter_mut() {
                if rng.chance(60) {
                    let gsi_pk = *rng.pick::<&str>(GSI_PK);
                    let gsi_pk = match &mut sharding {
                        Some(s) => s.suffix(gsi_pk, 50),
                        None => gsi_pk.to_string(),
                    };
                    set_key(e, &vocab, &pk, &gsi_pk);
                    if with_sk {
                        set_key(e, &vocab, &sk, rng.pick::<&str>(SK));
                    }
                }
            }
            indexes.push(Index {
                name: format!("gsi{g}"),
                local: false,
                pk,
                sk: with_sk.then_some(sk),
                projection,
            });
        } else {
            // Keyed by plain attributes: every entity with them is in it.
            let pk = *rng.pick(&["status", "tag", "day", "priority", "storeId", "tenantId"]);
            let sk = rng.chance(70).then(|| *rng.pick(&["at", "day", "name", "noteId"]));
            if pk == "tag" && ty_of(&vocab, "tag") != Ty::Id || Some(pk) == sk {
                continue;
            }
            let n = rng.below(entities.len());
            let optional = rng.chance(40);
            add_attr(&mut entities[n], &vocab, pk, optional);

            if indexes.iter().any(|i: &Index| i.name == format!("by_{pk}")) {
                continue;
            }
            indexes.push(Index {
                name: format!("by_{pk}"),
                local: false,
                pk: pk.into(),
                sk: sk.map(str::to_string),
                projection,
            });
        }
    }
    if rng.chance(30) {
        let plain = rng.chance(40);
        let sk = if plain {
            rng.pick(&["at", "day"]).to_string()
        } else {
            "lsi1sk".to_string()
        };
        for e in entities.iter_mut() {
            if plain {
                if rng.chance(30) {
                    add_attr(e, &vocab, &sk, rng.chance(30));
                }
            } else if rng.chance(60) {
                set_key(e, &vocab, "lsi1sk", rng.pick::<&str>(SK));
            }
        }
        indexes.push(Index {
            name: "lsi1".into(),
            local: true,
            pk: "pk".into(),
            sk: Some(sk),
            projection: rng.pick(&["", " keys_only"]).to_string(),
        });
    }
    // An entity with one of a plain index's attributes has both (E105);
    // indexes may chain (`(day, at)`, `(storeId, day)`), hence the rounds.
    for i in (0..3).flat_map(|_| indexes.iter().filter(|i| !i.local && !i.pk.starts_with("gsi"))) {
        for e in entities.iter_mut() {
            if let Some(sk) = &i.sk
                && (e.attr(&i.pk).is_some() || e.attr(sk).is_some())
            {
                add_attr(e, &vocab, &i.pk, false);
                add_attr(e, &vocab, sk, false);
            }
        }
    }
    if let Some(s) = &mut sharding {
        add_buckets(&mut entities, s);
    }
    let mut design = Design {
        indexes,
        entities,
        patterns: Vec::new(),
    };
    let count = design.entities.len() + 2 + rng.below(4);
    for n in 0..count {
        let e = if n < design.entities.len() {
            n
        } else {
            rng.below(design.entities.len())
        };
        let pattern = derive(&mut rng, &design, e, format!("p{n}"));
        design.patterns.push(pattern);
    }
    design
}

/// A pattern for entity `e`: equality on the partition holes of one access
/// path, then some sort-key holes by equality, maybe a range on the next
/// one, maybe ordered by it; sometimes a collection, sometimes adversarial.
fn derive(rng: &mut Rng, design: &Design, e: usize, name: String) -> Pattern {
    let entity = &design.entities[e];
    let mut paths: Vec<(String, Option<String>)> = vec![("pk".into(), Some("sk".into()))];
    for i in &design.indexes {
        let in_it = entity.key_source(&i.pk).is_some() && i.sk.as_ref().is_none_or(|s| entity.key_source(s).is_some());
        if in_it {
            paths.push((i.pk.clone(), i.sk.clone()));
        }
    }
    let (pk, sk) = rng.pick(&paths).clone();
    let pkt: Template = entity.key_source(&pk).unwrap();
    let mut known: Vec<Known> = Vec::new();
    for h in holes(&pkt) {
        // A pattern rarely knows its write shard: it reads every shard.
        let shard = entity.attr(h).is_some_and(|a| a.ty.is_shard());
        if shard && !rng.chance(10) {
            continue;
        }
        if !known.iter().any(|k| k.attr() == h) {
            known.push(Known::Eq(h.into()));
        }
    }
    let skt = sk.as_ref().and_then(|s| entity.key_source(s)).unwrap_or_default();
    let open: Vec<&str> = holes(&skt)
        .into_iter()
        .filter(|h| !known.iter().any(|k| k.attr() == *h))
        .collect();
    let k = rng.below(open.len() + 1);
    for h in &open[..k] {
        let ty = &entity.attr(h).unwrap().ty;
        if rng.chance(15) {
            // A fixed number is unsigned in the language.
            let pool: Vec<String> = ty.pool().into_iter().filter(|v| !v.starts_with('-')).collect();
            known.push(Known::Fixed(h.to_string(), rng.pick(&pool).clone()));
        } else {
            known.push(Known::Eq(h.to_string()));
        }
    }
    let mut ranged = false;
    let mut by = None;
    if let Some(h) = open.get(k) {
        let ty = &entity.attr(h).unwrap().ty;
        if rng.chance(50) {
            ranged = true;
            let a = h.to_string();
            known.push(match rng.below(if ty.numeric() { 3 } else { 4 }) {
                0 => Known::Cmp(a, OPS[rng.below(4)], "lo".into()),
                1 => Known::Cmp(a, OPS[rng.below(2) * 3], "lo".into()),
                2 => Known::Between(a, "lo".into(), "hi".into()),
                _ => Known::Begins(a, "pre".into()),
            });
        }
        if rng.chance(40) {
            by = Some((h.to_string(), rng.chance(50)));
        }
    }
    let single = open.len() == k && !ranged;
    let mut returns = vec![(entity.name.clone(), !single ^ rng.chance(10))];
    if rng.chance(30) {
        // A collection: the other entities that share the partition template.
        for other in &design.entities {
            if other.name != entity.name
                && other.key_source(&pk) == Some(pkt.clone())
                && sk.as_ref().is_none_or(|s| other.key_source(s).is_some())
                && rng.chance(80)
            {
                let many = other
                    .key_source(sk.as_deref().unwrap_or("sk"))
                    .is_none_or(|t| !holes(&t).is_empty());
                returns.push((other.name.clone(), many));
            }
        }
    }
    if rng.chance(15) {
        // Adversarial: a known value the key does not hold.
        if let Some(a) = entity
            .attrs
            .iter()
            .find(|a| !a.ty.is_shard() && !known.iter().any(|k| k.attr() == a.name))
        {
            known.push(Known::Eq(a.name.clone()));
        }
    }
    Pattern {
        name,
        known,
        returns,
        by,
        limit: rng.chance(20).then(|| 1 + rng.below(3) as u64),
        consistent: rng.chance(15),
    }
}
