fn main() {
    std::process::exit(dyno::cli::main());
}
