/// One template database per migrations directory, created by the first caller.
actor MigratedTemplates {
    private var tasks: [String: Task<String, any Error>] = [:]

    /// The template's name, once `create` has made it; later callers wait for the first.
    func template(for key: String, create: @escaping @Sendable (String) async throws -> Void) async throws -> String {
        if let existing = tasks[key] { return try await existing.value }
        let name = "template_\(tasks.count + 1)"
        let task = Task<String, any Error> {
            try await create(name)
            return name
        }
        tasks[key] = task
        return try await task.value
    }
}
