//! Small entity/pattern sets for `dyno design`, deterministic from a seed,
//! whose patterns a design can serve by construction: one table `key pk, sk`
//! and no key templates, entities with an id and (but for the roots) a
//! parent, and the reads applications make of them — get by id, the
//! children of a parent, by an enum status ordered by a date, a range on a
//! datetime, both sides of a many-to-many edge, a parent with its children,
//! and strongly consistent reads where one table partition serves them all.
//!
//! The consistent reads are the only patterns that must be in the table (or
//! a local index): each entity has one home partition (a root's own id, a
//! child's parent's id) and only reads of that partition are consistent, so
//! no two of them ask for different table keys.

/// xorshift64*, like the checker-truth generator's.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x2545_F491_4F6C_DD1D | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const NAMES: &[&str] = &[
    "Org", "Project", "Task", "Comment", "Member", "Invoice", "Device", "Reading", "Store", "Order",
];

const STATUS: &[&str] = &["open", "closed", "archived"];

#[derive(Clone, Debug)]
pub struct Entity {
    pub name: String,
    /// Index of the parent entity; none for a root.
    pub parent: Option<usize>,
    /// The id's type: `id` or `ulid`.
    pub ulid: bool,
    /// Whether the entity has a `status` enum and a `createdAt` datetime.
    pub dated: bool,
    /// A many-to-many edge between these two entities (its own id-less
    /// entity, written by the generator as `Link…`).
    pub edge: Option<(usize, usize)>,
}

#[derive(Clone, Debug)]
pub struct Pattern {
    pub name: String,
    /// Everything after the name: `(known) -> returns modifiers`.
    pub rest: String,
}

#[derive(Clone, Debug)]
pub struct Spec {
    pub entities: Vec<Entity>,
    pub patterns: Vec<Pattern>,
}

fn lower(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map_or(String::new(), |f| f.to_ascii_lowercase().to_string() + c.as_str())
}

impl Entity {
    pub fn id(&self) -> String {
        format!("{}Id", lower(&self.name))
    }
}

impl Spec {
    /// The ids an entity carries: its ancestors' (root first) and its own.
    fn ids(&self, e: usize) -> Vec<String> {
        let entity = &self.entities[e];
        if let Some((a, b)) = entity.edge {
            return vec![self.entities[a].id(), self.entities[b].id()];
        }
        let mut out = match entity.parent {
            Some(p) => self.ids(p),
            None => Vec::new(),
        };
        out.push(entity.id());
        out
    }

    fn id_type(&self, id: &str) -> &'static str {
        let owner = self.entities.iter().find(|e| e.edge.is_none() && e.id() == id);
        if owner.is_some_and(|e| e.ulid) { "ulid" } else { "id" }
    }

    /// Whether `e`'s home partition (see the module comment) is the one a
    /// read knowing only `id` reads.
    fn home_is(&self, e: usize, id: &str) -> bool {
        let entity = &self.entities[e];
        match (entity.edge, entity.parent) {
            (Some((a, _)), _) => self.entities[a].id() == id,
            (None, Some(p)) => self.entities[p].id() == id,
            (None, None) => entity.id() == id,
        }
    }

    pub fn render(&self) -> String {
        let mut out = String::from("table App {\n  key pk, sk\n}\n");
        for (e, entity) in self.entities.iter().enumerate() {
            out.push_str(&format!("\nentity {} {{\n", entity.name));
            for id in self.ids(e) {
                out.push_str(&format!("  {id}: {}\n", self.id_type(&id)));
            }
            if entity.dated {
                out.push_str(&format!(
                    "  status: enum({})\n  createdAt: datetime\n",
                    STATUS.join(", ")
                ));
            }
            out.push_str("  title: string\n}\n");
        }
        for p in &self.patterns {
            out.push_str(&format!("\npattern {}{}\n", p.name, p.rest));
        }
        out
    }
}

/// 2–6 entities in a forest (and maybe one many-to-many edge), 1–4
/// patterns per entity.
pub fn generate(seed: u64) -> Spec {
    let mut rng = Rng::new(seed);
    let count = 2 + rng.below(5);
    let start = rng.below(NAMES.len());
    let mut entities: Vec<Entity> = Vec::new();
    for i in 0..count {
        let parent = (i > 0 && rng.chance(70)).then(|| rng.below(i));
        entities.push(Entity {
            name: NAMES[(start + i) % NAMES.len()].to_string(),
            parent,
            ulid: rng.chance(40),
            dated: rng.chance(70),
            edge: None,
        });
    }
    if count >= 2 && rng.chance(40) {
        let a = rng.below(count);
        let b = (a + 1 + rng.below(count - 1)) % count;
        let name = format!("Link{}{}", entities[a].name, entities[b].name);
        entities.push(Entity {
            name,
            parent: None,
            ulid: false,
            dated: rng.chance(50),
            edge: Some((a, b)),
        });
    }
    let mut spec = Spec {
        entities,
        patterns: Vec::new(),
    };
    let mut patterns = Vec::new();
    for e in 0..spec.entities.len() {
        let entity = spec.entities[e].clone();
        let name = &entity.name;
        if let Some((a, b)) = entity.edge {
            let (ida, idb) = (spec.entities[a].id(), spec.entities[b].id());
            let consistent = if rng.chance(30) { " consistent" } else { "" };
            patterns.push(("edgesOfA", format!("({ida}) -> {name}[]{consistent}")));
            patterns.push(("edgesOfB", format!("({idb}) -> {name}[]")));
            if entity.dated && rng.chance(50) {
                patterns.push(("recentEdges", format!("({idb}) -> {name}[] by createdAt desc limit 10")));
            }
            continue;
        }
        let children: Vec<usize> = (0..spec.entities.len())
            .filter(|&c| spec.entities[c].parent == Some(e) && spec.entities[c].edge.is_none())
            .collect();
        let own = entity.id();
        // Get by id: the own id alone, or the whole path.
        match entity.parent {
            None => {
                let consistent = if rng.chance(30) { " consistent" } else { "" };
                patterns.push(("get", format!("({own}) -> {name}{consistent}")));
            }
            Some(_) if rng.chance(50) => patterns.push(("get", format!("({own}) -> {name}"))),
            Some(p) => {
                let consistent = if rng.chance(30) { " consistent" } else { "" };
                let parent_id = spec.entities[p].id();
                patterns.push(("getIn", format!("({parent_id}, {own}) -> {name}{consistent}")));
            }
        }
        if let Some(p) = entity.parent {
            let parent_id = spec.entities[p].id();
            if rng.chance(70) {
                let consistent = if rng.chance(25) { " consistent" } else { "" };
                patterns.push(("list", format!("({parent_id}) -> {name}[] ~20{consistent}")));
            }
            if entity.dated && rng.chance(50) {
                patterns.push((
                    "since",
                    format!("({parent_id}, createdAt >= since) -> {name}[] by createdAt"),
                ));
            } else if entity.dated && rng.chance(40) {
                patterns.push((
                    "between",
                    format!("({parent_id}, createdAt between from and to) -> {name}[] by createdAt desc"),
                ));
            }
            if entity.dated && rng.chance(30) {
                patterns.push((
                    "byStatusIn",
                    format!("({parent_id}, status) -> {name}[] by createdAt desc"),
                ));
            }
        }
        if entity.dated && rng.chance(50) {
            let word = STATUS[rng.below(STATUS.len())];
            patterns.push(("byStatus", format!("(status = {word}) -> {name}[] by createdAt desc")));
        }
        if !children.is_empty() && rng.chance(60) {
            let returns: Vec<String> = children
                .iter()
                .filter(|_| rng.chance(70))
                .map(|&c| format!("{}[]", spec.entities[c].name))
                .collect();
            if !returns.is_empty() {
                let all_home = children.iter().all(|&c| spec.home_is(c, &own)) && spec.home_is(e, &own);
                let consistent = if all_home && rng.chance(30) { " consistent" } else { "" };
                patterns.push(("with", format!("({own}) -> {name}, {}{consistent}", returns.join(", "))));
            }
        }
    }
    spec.patterns = patterns
        .into_iter()
        .enumerate()
        .map(|(i, (kind, rest))| Pattern {
            name: format!("{kind}{i}"),
            rest,
        })
        .collect();
    spec
}

/// A smaller spec that still fails `fails`: patterns dropped one at a time,
/// then entities no pattern names.
pub fn shrink(spec: &Spec, fails: impl Fn(&str) -> bool) -> Spec {
    let mut spec = spec.clone();
    let mut i = 0;
    while i < spec.patterns.len() {
        let mut smaller = spec.clone();
        smaller.patterns.remove(i);
        if fails(&smaller.render()) {
            spec = smaller;
        } else {
            i += 1;
        }
    }
    spec
}
