"""An Embedding trained with Adam and Nadam on batches that repeat indices: the gradient is
IndexedSlices, whose rows the optimizers square one by one before they add up."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(8)
rng = np.random.RandomState(8)
x = rng.randint(0, 6, size=(32, 5))
y = (x.sum(axis=1) % 3).astype('int32')
for optimizer in ['adam', tf.keras.optimizers.Nadam(0.01), tf.keras.optimizers.RMSprop(0.01)]:
    model = tf.keras.Sequential([
        tf.keras.Input((5,), dtype='int32'),
        tf.keras.layers.Embedding(6, 4),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(3, activation='softmax'),
    ])
    model.compile(optimizer=optimizer, loss='sparse_categorical_crossentropy')
    history = model.fit(x, y, epochs=2, batch_size=8, verbose=0)
    print(type(model.optimizer).__name__, 'loss', history.history['loss'])
    print('embeddings', model.layers[0].embeddings.numpy()[:2].ravel().tolist())
with tf.GradientTape() as tape:
    model = tf.keras.layers.Embedding(4, 2, embeddings_initializer='ones')
    out = model(np.array([[1, 1, 2]]))
    loss = tf.reduce_sum(out * out)
grad = tape.gradient(loss, model.trainable_variables)[0]
print(type(grad).__name__, grad.indices.numpy().tolist(), tf.convert_to_tensor(grad).numpy().tolist())
optimizer = tf.keras.optimizers.Adam(0.1)
optimizer.apply_gradients([(grad, model.embeddings)])
print('velocity', optimizer.variables[2].numpy().ravel().tolist())
print('after', model.embeddings.numpy().ravel().tolist())
