fn main() {
    pe_explorer::ui::start();
}
